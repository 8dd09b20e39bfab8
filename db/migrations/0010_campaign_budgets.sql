CREATE TABLE "campaign_budget_alerts" (
	"app_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"currency" text NOT NULL,
	"threshold" smallint NOT NULL,
	"spent" bigint NOT NULL,
	"budget" bigint NOT NULL,
	"mission_id" text NOT NULL,
	"at" bigint NOT NULL,
	CONSTRAINT "campaign_budget_alerts_app_id_campaign_id_currency_threshold_pk" PRIMARY KEY("app_id","campaign_id","currency","threshold")
);
--> statement-breakpoint
CREATE TABLE "campaign_budget_spent" (
	"app_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"currency" text NOT NULL,
	"spent" bigint NOT NULL,
	"cap" bigint,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "campaign_budget_spent_app_id_campaign_id_currency_pk" PRIMARY KEY("app_id","campaign_id","currency"),
	CONSTRAINT "campaign_budget_within" CHECK ("campaign_budget_spent"."cap" is null or "campaign_budget_spent"."spent" <= "campaign_budget_spent"."cap")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "budget" jsonb;