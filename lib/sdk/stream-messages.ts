// Reading stream messages: ids deduplicated (a resume may repeat what was
// already received), the last id kept for Last-Event-ID, the JSON parsed.
import type { SdkUpdate } from './types';

const SEEN_MAX = 2000;

/** An empty or blank id is no id (an empty Last-Event-ID header would ask the server for an unknown id). */
const eventId = (id: string | null | undefined): string | null => (id == null || id.trim() === '' ? null : id);

export class StreamMessages {
  private readonly seen = new Set<string>();
  /** Id of the last message received (sent as Last-Event-ID on reconnect). */
  lastEventId: string | null;

  constructor(lastEventId: string | undefined) {
    this.lastEventId = eventId(lastEventId);
  }

  /**
   * The update a message carries with its id, or null when it was already
   * received or is not an update; `onInvalid` hears of unparsable JSON.
   */
  read(rawId: string | null, data: string, onInvalid: (err: Error) => void): { id: string | null; update: SdkUpdate } | null {
    const id = eventId(rawId);
    if (id !== null) {
      if (this.seen.has(id)) return null;
      this.seen.add(id);
      if (this.seen.size > SEEN_MAX) this.seen.delete(this.seen.values().next().value as string);
      this.lastEventId = id;
    }
    let update: SdkUpdate;
    try {
      update = JSON.parse(data) as SdkUpdate;
    } catch {
      onInvalid(new Error(`Unparsable stream message: ${data.slice(0, 100)}`));
      return null;
    }
    if (!update || typeof update !== 'object' || typeof update.type !== 'string' || typeof update.data !== 'object') return null;
    return { id, update };
  }
}
