// The pub/sub port: fan a message out to every subscriber of a channel on
// every instance (in-process, Redis pub/sub over TCP, or Upstash).
export type Unsubscribe = () => Promise<void>;

export interface Bus {
  readonly kind: 'memory' | 'redis' | 'upstash';
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live, so nothing published afterwards is missed. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<Unsubscribe>;
  /**
   * Calls `listener` each time the subscriber connection came back after a
   * drop, once its channels are subscribed again: whatever was published
   * meanwhile was not delivered. Never called by the in-process bus (nothing
   * is lost) nor by the Upstash one (it cannot see its stream drop).
   */
  onResubscribed(listener: () => void): () => void;
  close(): Promise<void>;
}
