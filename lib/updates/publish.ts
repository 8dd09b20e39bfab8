// Hands a user's updates to the update log after the change that caused them
// is committed: each one gets a per-user increasing id and is published as
// `{id, update}` on the user's bus channel; the stream endpoint fans them out
// to every open stream and replays them on resume (Last-Event-ID).
import { logError } from '@/lib/log';
import { isCircuitOpen } from '@/lib/kv/breaker';
import { kvKey } from '@/lib/kv/keys';
import { getUpdateLog, userLogKey } from './log';
import type { SdkUpdate } from '@/lib/contract/updates';
import { metrics } from '@/lib/metrics';

export const userChannel = (appId: string, userId: string) => kvKey('updates', appId, userId);

export async function publishUpdates(appId: string, userId: string, updates: SdkUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  try {
    await getUpdateLog().appendAndPublish(
      userLogKey(appId, userId),
      userChannel(appId, userId),
      updates.map((u) => JSON.stringify(u)),
    );
  } catch (err) {
    // The change is committed; a lost message is recovered by the client's next read.
    metrics().busErrors.inc({ operation: 'publish' });
    if (!isCircuitOpen(err)) logError('publish failed', err, { appId, userId, types: updates.map((u) => u.type) });
  }
}
