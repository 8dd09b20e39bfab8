-- The support desk finds a player from any part of the id, in any case: a trigram index (pg_trgm, a trusted extension: any role that may CREATE in the database loads it; PGlite loads its pg_trgm module, db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX IF EXISTS "app_users_prefix_idx";--> statement-breakpoint
CREATE INDEX "app_users_id_trgm_idx" ON "app_users" USING gin ("user_id" gin_trgm_ops);
