CREATE TABLE "staff_grant_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"actor" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "claim_refusals" ADD COLUMN "counted_keys" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "staff_grant_usage_day_idx" ON "staff_grant_usage" USING btree ("app_id","actor","currency","at");
--> statement-breakpoint
-- Hand-written: the day's totals so far, from the audit rows they were read from until now (an erased player's are already gone).
INSERT INTO "staff_grant_usage" ("app_id", "actor", "currency", "amount", "at")
SELECT "app_id", "actor", "after"->>'currency', abs(("after"->>'change')::bigint), "at" FROM "audit_log"
WHERE "action" = 'user.grant' AND "app_id" IS NOT NULL AND "after" ? 'change'
  AND "at" >= (extract(epoch from now()) * 1000)::bigint - 2 * 86400000;--> statement-breakpoint
INSERT INTO "staff_grant_usage" ("app_id", "actor", "currency", "amount", "at")
SELECT "app_id", "actor", "after"->'charged'->>'currency', ("after"->'charged'->>'amount')::bigint, "at" FROM "audit_log"
WHERE "action" = 'user.mission_complete' AND "app_id" IS NOT NULL AND "after" ? 'charged'
  AND "at" >= (extract(epoch from now()) * 1000)::bigint - 2 * 86400000;--> statement-breakpoint
-- Hand-written: the key each refusal row already counted (its last) is a counted key.
UPDATE "claim_refusals" SET "counted_keys" = jsonb_build_object("idempotency_key", "at") WHERE "idempotency_key" IS NOT NULL;
