// Public entry point of the Questline client SDK.
export { createQuestlineClient, type QuestlineClient, type QuestlineClientOptions } from './client';
export * from './errors';
export { backoffDelay, backoffCeiling, type BackoffOptions, type Jitter } from './backoff';
export { createSseParser, type SseMessage, type SseParser } from './sse-parser';
export type { Subscription, SubscriptionState, SubscribeOptions, UpdateMeta, Timers } from './subscription';
export type { OpenInfo, StreamTransport, StreamHandlers, StreamRequest } from './transports';
export type * from './types';
export { ERROR_STATUS } from './contract-types';
