CREATE TABLE "analytics_points" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"properties" jsonb NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"webhook_secret" text NOT NULL,
	"created_at" bigint NOT NULL,
	"secret_rotated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" bigint NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"app_id" text,
	"target" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "balances" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "balances_app_id_user_id_currency_pk" PRIMARY KEY("app_id","user_id","currency"),
	CONSTRAINT "balance_not_negative" CHECK ("balances"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"app_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start_at" bigint NOT NULL,
	"end_at" bigint NOT NULL,
	"theme" jsonb,
	"banner_url" text DEFAULT '' NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "campaigns_app_id_id_pk" PRIMARY KEY("app_id","id"),
	CONSTRAINT "campaign_bounds" CHECK ("campaigns"."end_at" > "campaigns"."start_at")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"timestamp" bigint NOT NULL,
	"idempotency_key" text,
	"source" text DEFAULT 'api' NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "idempotency_keys_app_id_user_id_key_pk" PRIMARY KEY("app_id","user_id","key")
);
--> statement-breakpoint
CREATE TABLE "ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"grant_key" text NOT NULL,
	"kind" text NOT NULL,
	"currency" text,
	"amount" bigint,
	"item_id" text,
	"quantity" integer,
	"badge_id" text,
	"mission_id" text,
	"balance_after" bigint,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "missions" (
	"app_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"criteria" jsonb NOT NULL,
	"reward" jsonb NOT NULL,
	"campaign_id" text,
	"expires_at" bigint,
	"icon_url" text,
	"prerequisites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "missions_app_id_id_pk" PRIMARY KEY("app_id","id")
);
--> statement-breakpoint
CREATE TABLE "progress" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"status" text NOT NULL,
	"current_count" integer NOT NULL,
	"target_count" integer NOT NULL,
	"window_start" bigint NOT NULL,
	"cycle" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "progress_app_id_user_id_mission_id_pk" PRIMARY KEY("app_id","user_id","mission_id")
);
--> statement-breakpoint
CREATE TABLE "revoked_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_revocations" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"before" bigint NOT NULL,
	CONSTRAINT "user_revocations_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missions" ADD CONSTRAINT "missions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_app_idx" ON "analytics_points" USING btree ("app_id","at");--> statement-breakpoint
CREATE INDEX "audit_app_idx" ON "audit_log" USING btree ("app_id","at");--> statement-breakpoint
CREATE INDEX "events_user_idx" ON "events" USING btree ("app_id","user_id","timestamp");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_grant_key_idx" ON "ledger" USING btree ("app_id","user_id","grant_key");--> statement-breakpoint
CREATE INDEX "ledger_user_idx" ON "ledger" USING btree ("app_id","user_id");--> statement-breakpoint
CREATE INDEX "missions_campaign_idx" ON "missions" USING btree ("app_id","campaign_id");