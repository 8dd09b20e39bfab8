// The JSON of GET /v1/missions (and the draft preview as a player) from the
// domain's mission views, built from pre-serialized pieces: each
// mission's public form (locked and unlocked) is encoded once per catalog
// version (a changed catalog is a new Catalog object, so the WeakMap drops the
// old pieces with it); per request only the user's progress entries are
// encoded and spliced in. The bytes equal JSON.stringify of the
// missionListSchema object the handler used to build.
import type { Catalog } from '@/lib/catalog/catalog';
import { publicMission } from '@/lib/catalog/convert';
import type { Mission } from '@/lib/contract/mission';
import type { MissionView } from '@/lib/missions/read-missions';

interface Pieces {
  unlocked: string;
  locked: string;
  /** JSON.stringify(mission.id): the key of the progress entry. */
  key: string;
}

const pieces = new WeakMap<Catalog, Map<string, Pieces>>();

function piecesOf(catalog: Catalog, mission: Mission): Pieces {
  let byId = pieces.get(catalog);
  if (!byId) pieces.set(catalog, (byId = new Map()));
  let p = byId.get(mission.id);
  if (!p) {
    p = { unlocked: JSON.stringify(publicMission(mission, false)), locked: JSON.stringify(publicMission(mission, true)), key: JSON.stringify(mission.id) };
    byId.set(mission.id, p);
  }
  return p;
}

/** `{ missions, progress, nextCursor }` as JSON text. */
export function missionListJson(catalog: Catalog, views: readonly MissionView[], nextCursor: string | null): string {
  let missions = '';
  let progress = '';
  for (const v of views) {
    const p = piecesOf(catalog, v.mission);
    missions += (missions === '' ? '' : ',') + (v.locked ? p.locked : p.unlocked);
    if (v.progress) progress += (progress === '' ? '' : ',') + p.key + ':' + JSON.stringify(v.progress);
  }
  return `{"missions":[${missions}],"progress":{${progress}},"nextCursor":${JSON.stringify(nextCursor)}}`;
}
