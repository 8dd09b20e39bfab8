// The pub/sub port: fan a message out to every subscriber of a channel on
// every instance (in-process, Redis pub/sub over TCP, or Upstash).
export type Unsubscribe = () => Promise<void>;

export interface Bus {
  readonly kind: 'memory' | 'redis' | 'upstash';
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live, so nothing published afterwards is missed. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}
