// Hands a user's updates to the bus after the change that caused them is
// committed; the stream endpoint fans them out to every open stream.
import { getBus } from '@/lib/bus';
import { logError } from '@/lib/log';
import type { SdkUpdate } from './schema';

export const userChannel = (appId: string, userId: string) => `updates:${appId}:${userId}`;

export async function publishUpdates(appId: string, userId: string, updates: SdkUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const bus = await getBus();
  for (const update of updates) {
    try {
      await bus.publish(userChannel(appId, userId), JSON.stringify(update));
    } catch (err) {
      // The change is committed; a lost live message is recovered by the client's next read.
      logError('publish failed', err, { appId, userId, type: update.type });
    }
  }
}
