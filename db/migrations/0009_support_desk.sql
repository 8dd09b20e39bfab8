CREATE TABLE "app_users" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"events" bigint NOT NULL,
	CONSTRAINT "app_users_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "user_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"author" text NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger" ADD COLUMN "actor" text;--> statement-breakpoint
ALTER TABLE "ledger" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "app_users_prefix_idx" ON "app_users" USING btree ("app_id","user_id" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "app_users_seen_idx" ON "app_users" USING btree ("app_id","last_seen_at","user_id");--> statement-breakpoint
CREATE INDEX "user_notes_user_idx" ON "user_notes" USING btree ("app_id","user_id","id");--> statement-breakpoint
-- Hand-written: the users seen before this migration, from their stored events.
INSERT INTO "app_users" ("app_id", "user_id", "first_seen_at", "last_seen_at", "events")
SELECT "app_id", "user_id", min("received_at"), max("received_at"), count(*) FROM "events" GROUP BY "app_id", "user_id";
