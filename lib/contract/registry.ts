// The contract's named shapes: the components of the OpenAPI document and the
// types of the SDK (scripts/sdk/generate-types.ts), by their public names.
// A new endpoint adds its shapes here (and its path to lib/http/v1/openapi.ts).
import { z } from 'zod';
import { balanceSchema } from './balance';
import { publicCampaignSchema } from './campaign';
import { errorBodySchema } from './errors';
import { ledgerEntrySchema } from './inspector';
import { publicMissionSchema, shownRewardSchema } from './mission';
import { missionProgressSchema, progressStatusSchema } from './progress';
import { notificationSchema } from './outbound';
import { themeSchema } from './theme';
import { sdkUpdateSchema } from './updates';
import {
  balanceListSchema,
  balanceQuerySchema,
  campaignDetailSchema,
  campaignListSchema,
  campaignQuerySchema,
  claimResponseSchema,
  eventResponseSchema,
  eventSchema,
  listCampaignsQuerySchema,
  listMissionsQuerySchema,
  missionDetailSchema,
  missionListSchema,
  recommendationsQuerySchema,
  recommendationsSchema,
  revokeResponseSchema,
  singleBalanceSchema,
  spendRequestSchema,
  spendResponseSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  webhookDeliverySchema,
  webhookEventSchema,
  webhookResponseSchema,
} from './v1';

/** Entities and bodies (requests and responses), as JSON has them on the wire. */
export const contractComponents = {
  Reward: shownRewardSchema,
  Mission: publicMissionSchema,
  Theme: themeSchema,
  Campaign: publicCampaignSchema,
  ProgressStatus: progressStatusSchema,
  MissionProgress: missionProgressSchema,
  Balance: balanceSchema,
  LedgerEntry: ledgerEntrySchema,
  SDKUpdate: sdkUpdateSchema,
  Error: errorBodySchema,
  TokenRequest: tokenRequestSchema,
  TokenResponse: tokenResponseSchema,
  RevokeResponse: revokeResponseSchema,
  Event: eventSchema,
  EventResponse: eventResponseSchema,
  MissionList: missionListSchema,
  MissionDetail: missionDetailSchema,
  ClaimResponse: claimResponseSchema,
  BalanceList: balanceListSchema,
  SingleBalance: singleBalanceSchema,
  SpendRequest: spendRequestSchema,
  SpendResponse: spendResponseSchema,
  CampaignList: campaignListSchema,
  CampaignDetail: campaignDetailSchema,
  WebhookEvent: webhookEventSchema,
  WebhookDelivery: webhookDeliverySchema,
  WebhookResponse: webhookResponseSchema,
  Recommendations: recommendationsSchema,
  Notification: notificationSchema,
} satisfies Record<string, z.ZodType>;
export type ComponentName = keyof typeof contractComponents;

/** Query strings, as a caller writes them (every field optional): OpenAPI parameters, SDK parameter types. */
export const contractQueries = {
  ListMissionsParams: listMissionsQuerySchema,
  BalanceParams: balanceQuerySchema,
  ListCampaignsParams: listCampaignsQuerySchema,
  CampaignParams: campaignQuerySchema,
  RecommendationsParams: recommendationsQuerySchema,
} satisfies Record<string, z.ZodObject>;

/**
 * The JSON Schemas of the components (2020-12), referring to one another as
 * `#/components/schemas/<Name>`. A registry of exactly these schemas, not
 * z.globalRegistry: zod keeps that one on globalThis, shared by every copy of
 * zod in a process (a Next.js server holds several), so it can hold schema
 * objects of other copies.
 */
export function componentJsonSchemas(): Record<ComponentName, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(contractComponents)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  // zod gives each schema `$schema` and a fragment-only `$id`; 2020-12 forbids a
  // fragment in `$id`, and a component is not a schema resource of its own.
  return Object.fromEntries(
    Object.entries(generated.schemas).map(([name, { $id: _id, $schema: _schema, ...schema }]) => [name, schema]),
  ) as unknown as Record<ComponentName, Record<string, unknown>>;
}

/** The JSON Schema of each field of a query schema, as a caller writes it (input form). */
export function queryJsonSchemas(schema: z.ZodObject): Record<string, { schema: Record<string, unknown>; description?: string }> {
  const { properties = {} } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
  };
  return Object.fromEntries(
    Object.entries(properties).map(([name, { description, ...rest }]) => [
      name,
      typeof description === 'string' ? { schema: rest, description } : { schema: rest },
    ]),
  );
}
