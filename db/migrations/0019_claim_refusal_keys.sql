ALTER TABLE "claim_refusals" ADD COLUMN "counted_keys" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Hand-written: the key each row already counted (its last) is a counted key.
UPDATE "claim_refusals" SET "counted_keys" = jsonb_build_object("idempotency_key", "at") WHERE "idempotency_key" IS NOT NULL;
