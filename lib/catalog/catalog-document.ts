// The catalog as one document (the shape of GET …/catalog): read from the live
// tables in a transaction, validated as a whole (a draft, a catalog import),
// and compared item by item (a draft against live, a release against the one
// before it).
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db/client';
import { campaigns as campaignsTable, missions as missionsTable, themes as themesTable, type CampaignRow } from '@/db/schema';
import { campaignFormSchema, type Campaign } from '@/lib/contract/campaign';
import { CATALOG_LIMITS, type CatalogDocument } from '@/lib/contract/catalog';
import { currencyDefinitionSchema, ECONOMY_LIMITS, itemDefinitionSchema, type EconomySections } from '@/lib/contract/economy';
import { describeIssues } from '@/lib/contract/describe-issues';
import { missionSchema, type Mission } from '@/lib/contract/mission';
import type { CatalogChange } from '@/lib/contract/release';
import { themePresetSchema, type ThemePreset } from '@/lib/contract/theme';
import { AppError } from '@/lib/errors';
import { campaignFromRow, canonicalJson, missionFromRow, themeFromRow } from './convert';
import { checkEconomyReferences, checkSectionIds } from './economy';
import { readEconomySections } from './economy-sections';

/** The envelope only: each item is parsed on its own, so an error names the item. */
const catalogEnvelopeSchema = z.object({
  missions: z.array(z.unknown()).max(CATALOG_LIMITS.missions).default([]),
  campaigns: z.array(z.unknown()).max(CATALOG_LIMITS.campaigns).default([]),
  themes: z.array(z.unknown()).max(CATALOG_LIMITS.themes).default([]),
  // Absent is not empty: an absent section is not checked (issue 39 §1).
  currencies: z.array(z.unknown()).max(ECONOMY_LIMITS.currencies).optional(),
  items: z.array(z.unknown()).max(ECONOMY_LIMITS.items).optional(),
});

/** The document's currencies and items sections, each parsed by its schema (ids unique, also ignoring case); absent stays absent. */
export function parseEconomySections(body: { currencies?: unknown[]; items?: unknown[] }): EconomySections {
  const out: EconomySections = {};
  if (body.currencies) {
    out.currencies = parseItems(currencyDefinitionSchema, body.currencies, 'currencies');
    checkSectionIds('currencies', out.currencies);
  }
  if (body.items) {
    out.items = parseItems(itemDefinitionSchema, body.items, 'items');
    checkSectionIds('items', out.items);
  }
  return out;
}

export function invalid(where: string, message: string): never {
  throw new AppError('validation_error', `${where}: ${message}`);
}

function parseItems<S extends z.ZodType>(schema: S, items: unknown[], kind: string): z.infer<S>[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    const id = typeof item === 'object' && item && 'id' in item ? String((item as { id: unknown }).id) : '?';
    const where = `${kind}[${i}] (id "${id}")`;
    const result = schema.safeParse(item);
    if (!result.success) invalid(where, describeIssues(result.error));
    const parsed = result.data as { id: string };
    if (seen.has(parsed.id)) invalid(where, 'duplicate id in this request');
    seen.add(parsed.id);
    return result.data;
  });
}

export function findCycle(missions: Map<string, Pick<Mission, 'id' | 'prerequisites'>>): string | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string): string | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'visiting') return id;
    state.set(id, 'visiting');
    for (const pre of missions.get(id)?.prerequisites ?? []) {
      const found = visit(pre);
      if (found) return found;
    }
    state.set(id, 'done');
    return null;
  };
  for (const id of missions.keys()) {
    const found = visit(id);
    if (found) return found;
  }
  return null;
}

/** A catalog body parsed item by item: each item by its schema (400 validation_error naming the item), ids unique per kind. */
export interface ParsedCatalog {
  missions: Mission[];
  campaigns: Array<z.output<typeof campaignFormSchema>>;
  themes: ThemePreset[];
  /** The currencies and items sections, when the body carries them. */
  economy: EconomySections;
}

/** The envelope, then each item by its schema: the same schemas as the console's forms (fields, filters, campaign bounds). */
export function parseCatalogItems(body: unknown): ParsedCatalog {
  const envelope = catalogEnvelopeSchema.safeParse(body);
  if (!envelope.success) invalid('body', describeIssues(envelope.error));
  return {
    missions: parseItems(missionSchema, envelope.data.missions, 'missions'),
    campaigns: parseItems(campaignFormSchema, envelope.data.campaigns, 'campaigns'),
    themes: parseItems(themePresetSchema, envelope.data.themes, 'themes'),
    economy: parseEconomySections(envelope.data),
  };
}

/**
 * The one check of a catalog's references, for a whole document (a draft:
 * `of` "catalog", everything against the document) and for an import merged
 * into an app's catalog (`of` "app", the given items against the catalog as
 * it will be after the write): the economy sections cover every reward and
 * budget line given; campaignId, prerequisites (no cycle), themeId and
 * missionIds name items of the final catalog.
 */
export function checkCatalogReferences(
  given: Pick<ParsedCatalog, 'missions' | 'campaigns' | 'economy'>,
  final: { missions: Map<string, Pick<Mission, 'id' | 'prerequisites' | 'campaignId'>>; campaignIds: Set<string>; themeIds: Set<string> },
  of: 'app' | 'catalog',
): void {
  checkEconomyReferences(given.economy, given.missions, given.campaigns);
  given.missions.forEach((m, i) => {
    const where = `missions[${i}] (id "${m.id}")`;
    if (m.campaignId && !final.campaignIds.has(m.campaignId)) invalid(where, `campaignId "${m.campaignId}" is not a campaign of this ${of}`);
    for (const pre of m.prerequisites) {
      if (pre === m.id) invalid(where, 'a mission cannot be its own prerequisite');
      if (!final.missions.has(pre)) invalid(where, `prerequisite "${pre}" is not a mission of this ${of}`);
    }
  });
  const cycle = findCycle(final.missions);
  if (cycle) invalid(`missions (id "${cycle}")`, 'prerequisites form a cycle');
  given.campaigns.forEach((c, i) => {
    const where = `campaigns[${i}] (id "${c.id}")`;
    if (c.themeId !== undefined && !final.themeIds.has(c.themeId)) invalid(where, `themeId "${c.themeId}" is not a theme of this ${of}`);
    for (const id of c.missionIds ?? []) {
      if (final.missions.get(id)?.campaignId !== c.id) invalid(where, `missionIds lists "${id}", whose campaignId is not "${c.id}"`);
    }
  });
}

/**
 * A whole catalog document (a draft): every item by its schema, ids unique,
 * and every reference (campaignId, prerequisites, themeId, missionIds) to an
 * item of the same document. Answers it normalised: defaults filled in,
 * items ordered by id, each campaign's missionIds derived from its missions,
 * `themes` present only when there are any (the shape of GET …/catalog).
 */
export function parseCatalogDocument(input: unknown): CatalogDocument {
  const { missions, campaigns, themes, economy } = parseCatalogItems(input ?? {});
  const missionById = new Map(missions.map((m) => [m.id, m]));
  checkCatalogReferences({ missions, campaigns, economy }, { missions: missionById, campaignIds: new Set(campaigns.map((c) => c.id)), themeIds: new Set(themes.map((t) => t.id)) }, 'catalog');
  return normalise(missions, campaigns, themes, economy);
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function normalise(
  missions: Mission[],
  campaigns: Array<Omit<Campaign, 'missionIds'> & { missionIds?: string[] }>,
  themes: CatalogDocument['themes'] = [],
  economy: EconomySections = {},
): CatalogDocument {
  const ordered = [...missions].sort(byId);
  const doc: CatalogDocument = {
    missions: ordered,
    campaigns: [...campaigns].sort(byId).map(({ missionIds: _ids, ...c }) => ({ ...c, missionIds: ordered.filter((m) => m.campaignId === c.id).map((m) => m.id) })),
  };
  if (themes.length > 0) doc.themes = [...themes].sort(byId);
  // Only the sections the app defines: a catalog without them keeps its historical shape.
  if (economy.currencies) doc.currencies = [...economy.currencies].sort(byId);
  if (economy.items) doc.items = [...economy.items].sort(byId);
  return doc;
}

/** The live catalog of an app, read with `db` (the open transaction, so a write sees its own rows). */
export async function readLiveCatalog(db: DbOrTx, appId: string): Promise<CatalogDocument> {
  return (await readLiveCatalogRows(db, appId)).catalog;
}

/** The live catalog, and the campaign rows it was made of (the audit rows of PUT …/catalog name a campaign as stored). */
export async function readLiveCatalogRows(db: DbOrTx, appId: string): Promise<{ catalog: CatalogDocument; campaignRows: CampaignRow[] }> {
  // One after the other: on a transaction's one connection, concurrent queries
  // only queue inside node-postgres (deprecated there, refused by pg 9).
  const missionRows = await db.select().from(missionsTable).where(eq(missionsTable.appId, appId));
  const campaignRows = await db.select().from(campaignsTable).where(eq(campaignsTable.appId, appId));
  const themeRows = await db.select().from(themesTable).where(eq(themesTable.appId, appId));
  const economy = await readEconomySections(db, appId);
  const catalog = normalise(missionRows.map(missionFromRow), campaignRows.map((row) => campaignFromRow(row, [])), themeRows.map(themeFromRow), economy);
  return { catalog, campaignRows };
}

/** Equal content, whatever the key order (jsonb does not keep it); a campaign's missionIds are derived, so not compared. */
function same(a: object, b: object): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
const withoutMissionIds = ({ missionIds: _ids, ...c }: Campaign) => c;

/**
 * What makes `next` differ from `current`, item by item: added, changed,
 * removed, missions then campaigns then themes then currencies and items, each by id. A mission
 * archived in `current` and absent from `next` is no change (publishing
 * leaves it archived, where it already is).
 */
export function diffCatalogs(current: CatalogDocument, next: CatalogDocument): CatalogChange[] {
  const out: CatalogChange[] = [];
  const compare = <T extends { id: string }>(kind: CatalogChange['kind'], before: T[], after: T[], eq: (a: T, b: T) => boolean, gone: (item: T) => boolean) => {
    const beforeById = new Map(before.map((item) => [item.id, item]));
    const afterById = new Map(after.map((item) => [item.id, item]));
    const ids = [...new Set([...beforeById.keys(), ...afterById.keys()])].sort();
    for (const id of ids) {
      const a = beforeById.get(id);
      const b = afterById.get(id);
      if (a && !b) {
        if (!gone(a)) out.push({ kind, id, change: 'removed' });
      } else if (!a && b) out.push({ kind, id, change: 'added' });
      else if (a && b && !eq(a, b)) out.push({ kind, id, change: 'changed' });
    }
  };
  compare('mission', current.missions, next.missions, (a, b) => same(a, b), (m) => m.archived);
  compare('campaign', current.campaigns, next.campaigns, (a, b) => same(withoutMissionIds(a), withoutMissionIds(b)), () => false);
  compare('theme', current.themes ?? [], next.themes ?? [], (a, b) => same(a, b), () => false);
  // A section the next document does not carry is kept as it is (publishing it changes no definition).
  if (next.currencies) compare('currency', current.currencies ?? [], next.currencies, (a, b) => same(a, b), () => false);
  if (next.items) compare('item', current.items ?? [], next.items, (a, b) => same(a, b), () => false);
  return out;
}
