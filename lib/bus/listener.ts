import { logError } from '@/lib/log';
import { metrics } from '@/lib/metrics';

/** One subscription; identity (not the callback) is what unsubscribe removes. */
export interface Listener {
  onMessage: (message: string) => void;
}

/** Calls one listener; a throwing listener must not starve the others. */
export function deliver(listener: Listener, channel: string, message: string): void {
  try {
    listener.onMessage(message);
  } catch (err) {
    metrics().busErrors.inc({ operation: 'listener' });
    logError('bus listener failed', err, { channel });
  }
}
