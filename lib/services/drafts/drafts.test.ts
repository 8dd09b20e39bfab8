// The draft verbs called directly with a ServiceContext, no server: a draft
// is validated as a whole (an invalid item or a duplicate id names the item,
// validation_error, nothing stored), its write and its discard are audited
// with the actor, and without a draft get and delete answer draft_not_found.
// (Publishing and releases: lib/services/releases/releases.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { apps, auditLog, catalogDrafts } from '@/db/schema';
import { testServiceContext, type TestServiceContext } from '@/lib/testing/service-context';
import { uniqueId } from '@/lib/testing/test-env';
import { withTransaction, type ServiceContext } from '../context';
import { deleteDraft } from './delete-draft';
import { duplicateCampaign } from './duplicate-campaign';
import { publishDraft } from './publish-draft';
import { getDraft } from './get-draft';
import { previewAsPlayer } from './preview-as-player';
import { putDraft } from './put-draft';

const NOW = 1_764_000_000_000;
let t: TestServiceContext;
let db: Db;

beforeAll(async () => {
  t = await testServiceContext('drafts', { actor: { kind: 'staff', id: 'eve@example.com', role: 'editor' }, now: NOW });
  db = t.db;
});

/** A context for a fresh app (drafts reference their app's row). */
async function appCtx(): Promise<ServiceContext> {
  const appId = uniqueId('app');
  await db.insert(apps).values({ id: appId, name: appId, secretHash: 'x', webhookSecret: 'w', createdAt: 1, secretRotatedAt: 1 });
  return { ...t.ctx, appId };
}
const mission = (id: string) => ({ id, title: `Mission ${id}`, criteria: { eventName: 'play', count: 1 }, reward: { kind: 'currency', currency: 'gems', amount: 10 } });
const auditOf = (appId: string, action: string) => db.select().from(auditLog).where(and(eq(auditLog.appId, appId), eq(auditLog.action, action)));

describe('draft verbs', () => {
  it('putDraft stores the document with its changes against live, audited as draft.update by the actor; getDraft answers it', async () => {
    const ctx = await appCtx();
    const draft = await putDraft({ ctx, input: { catalog: { missions: [mission('a')], campaigns: [] } } });
    expect(draft).toMatchObject({ baseRelease: 0, updatedAt: NOW, updatedBy: 'staff:eve@example.com', scheduledAt: null });
    expect(draft.changes).toEqual([expect.objectContaining({ kind: 'mission', id: 'a' })]);
    expect(await getDraft({ ctx })).toEqual(draft);
    const [audit, ...more] = await auditOf(ctx.appId, 'draft.update');
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: 'staff:eve@example.com', target: 'draft', at: NOW, after: { baseRelease: 0 } });
  });

  it('refuses an invalid item or a duplicate id with validation_error naming it, and stores nothing', async () => {
    const ctx = await appCtx();
    await expect(putDraft({ ctx, input: { catalog: { missions: [mission('a'), { ...mission('b'), criteria: { eventName: 'play', count: 0 } }] } } })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('missions[1] (id "b")'),
    });
    await expect(putDraft({ ctx, input: { catalog: { missions: [mission('a'), mission('a')] } } })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining('duplicate id'),
    });
    expect(await db.select().from(catalogDrafts).where(eq(catalogDrafts.appId, ctx.appId))).toEqual([]);
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toEqual([]);
  });

  it('deleteDraft discards it, audited as draft.discard; without a draft get and delete answer draft_not_found', async () => {
    const ctx = await appCtx();
    await expect(getDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });
    await expect(deleteDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });
    await putDraft({ ctx, input: { catalog: { missions: [mission('a')] } } });
    await deleteDraft({ ctx });
    await expect(getDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });
    const [audit] = await auditOf(ctx.appId, 'draft.discard');
    expect(audit).toMatchObject({ actor: 'staff:eve@example.com', target: 'draft', before: { baseRelease: 0, scheduledAt: null }, after: null });
  });

  it('nests in a caller transaction: a rollback takes the draft and its audit row', async () => {
    const ctx = await appCtx();
    await expect(
      withTransaction(ctx, async (tx) => {
        await putDraft({ ctx: tx, input: { catalog: { missions: [mission('a')] } } });
        throw new Error('caller fails after the verb');
      }),
    ).rejects.toThrow('caller fails');
    await expect(getDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });
    expect(await db.select().from(auditLog).where(eq(auditLog.appId, ctx.appId))).toEqual([]);
  });

  it('previewAsPlayer reads the draft at the given time through listMissions: campaign start and prerequisites lock, ended campaigns drop out; no draft: draft_not_found', async () => {
    const ctx = await appCtx();
    await expect(previewAsPlayer({ ctx, input: { userId: 'u1' } })).rejects.toMatchObject({ code: 'draft_not_found' });
    const day = 86_400_000;
    const campaign = { id: 'c', title: 'C', startAt: NOW + day, endAt: NOW + 3 * day };
    await putDraft({ ctx, input: { catalog: { missions: [{ ...mission('a'), campaignId: 'c' }, { ...mission('b'), prerequisites: ['a'] }], campaigns: [campaign] } } });
    const summary = (p: Awaited<ReturnType<typeof previewAsPlayer>>) => p.views.map((v) => [v.mission.id, v.status, v.lock?.reason ?? null]);
    const now = await previewAsPlayer({ ctx, input: { userId: 'u1' } });
    expect(now.at).toBe(NOW);
    expect(summary(now)).toEqual([['a', 'locked', 'campaign_not_started'], ['b', 'locked', 'prerequisites']]);
    const started = await previewAsPlayer({ ctx, input: { userId: 'u1', at: NOW + 2 * day } });
    expect(summary(started)).toEqual([['a', 'active', null], ['b', 'locked', 'prerequisites']]);
    const ended = await previewAsPlayer({ ctx, input: { userId: 'u1', at: NOW + 4 * day } });
    expect(summary(ended)).toEqual([['b', 'locked', 'prerequisites']]);
  });

  it('duplicateCampaign copies a live campaign and its missions into a new draft with new ids, prerequisites inside the campaign pointing at the copies; again: -copy-2; given id and title; clash, unknown campaign: nothing stored', async () => {
    const ctx = await appCtx();
    const day = 86_400_000;
    const winter = { id: 'winter', title: 'Winter cup', startAt: NOW + day, endAt: NOW + 8 * day, budget: [{ currency: 'gems', amount: 500 }] };
    const live = {
      missions: [
        mission('base'),
        { ...mission('w1'), campaignId: 'winter' },
        { ...mission('w2'), campaignId: 'winter', prerequisites: ['w1', 'base'] },
        { ...mission('w3'), campaignId: 'winter', archived: true },
      ],
      campaigns: [winter],
    };
    await putDraft({ ctx, input: { catalog: live } });
    await publishDraft({ ctx, input: {} });
    await expect(getDraft({ ctx })).rejects.toMatchObject({ code: 'draft_not_found' });

    const first = await duplicateCampaign({ ctx, input: { campaignId: 'winter' } });
    expect(first.campaignId).toBe('winter-copy');
    expect(first.missionIds).toEqual({ w1: 'w1-copy', w2: 'w2-copy' });
    const doc = first.draft.catalog;
    expect(doc.campaigns.find((c) => c.id === 'winter-copy')).toMatchObject({ title: 'Winter cup (copy)', startAt: winter.startAt, endAt: winter.endAt, budget: winter.budget, missionIds: ['w1-copy', 'w2-copy'] });
    expect(doc.missions.find((m) => m.id === 'w1-copy')).toMatchObject({ title: 'Mission w1', campaignId: 'winter-copy', prerequisites: [] });
    expect(doc.missions.find((m) => m.id === 'w2-copy')).toMatchObject({ campaignId: 'winter-copy', prerequisites: ['w1-copy', 'base'] });
    // The originals are untouched; the archived mission is not copied.
    expect(doc.missions.find((m) => m.id === 'w2')).toMatchObject({ campaignId: 'winter', prerequisites: ['w1', 'base'] });
    expect(doc.missions.map((m) => m.id).sort()).toEqual(['base', 'w1', 'w1-copy', 'w2', 'w2-copy', 'w3']);
    expect([...first.draft.changes].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
      { kind: 'mission', id: 'w1-copy', change: 'added' },
      { kind: 'mission', id: 'w2-copy', change: 'added' },
      { kind: 'campaign', id: 'winter-copy', change: 'added' },
    ].sort((a, b) => a.id.localeCompare(b.id)));
    const [audit] = await auditOf(ctx.appId, 'draft.campaign.duplicate');
    expect(audit).toMatchObject({ actor: 'staff:eve@example.com', target: 'draft' });

    const second = await duplicateCampaign({ ctx, input: { campaignId: 'winter' } });
    expect(second.campaignId).toBe('winter-copy-2');
    expect(second.missionIds).toEqual({ w1: 'w1-copy-2', w2: 'w2-copy-2' });
    const named = await duplicateCampaign({ ctx, input: { campaignId: 'winter-copy', id: 'spring', title: 'Spring cup' } });
    expect(named.campaignId).toBe('spring');
    expect(named.missionIds).toEqual({ 'w1-copy': 'w1-copy-copy', 'w2-copy': 'w2-copy-copy' });
    expect(named.draft.catalog.missions.find((m) => m.id === 'w2-copy-copy')?.prerequisites).toEqual(['w1-copy-copy', 'base']);
    expect(named.draft.catalog.campaigns.find((c) => c.id === 'spring')?.title).toBe('Spring cup');

    const stored = await getDraft({ ctx });
    await expect(duplicateCampaign({ ctx, input: { campaignId: 'winter', id: 'winter-copy' } })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('winter-copy') });
    await expect(duplicateCampaign({ ctx, input: { campaignId: 'autumn' } })).rejects.toMatchObject({ code: 'campaign_not_found', message: expect.stringContaining('autumn') });
    expect(await getDraft({ ctx })).toEqual(stored);
    expect(await auditOf(ctx.appId, 'draft.campaign.duplicate')).toHaveLength(3);
  });
});
