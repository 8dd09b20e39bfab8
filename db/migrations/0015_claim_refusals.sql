CREATE TABLE "campaign_budget_refusals" (
	"app_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"currency" text NOT NULL,
	"refused" bigint NOT NULL,
	"first_at" bigint NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "campaign_budget_refusals_app_id_campaign_id_currency_pk" PRIMARY KEY("app_id","campaign_id","currency")
);
--> statement-breakpoint
CREATE TABLE "claim_refusals" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"mission_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"budget" bigint,
	"idempotency_key" text,
	"at" bigint NOT NULL,
	CONSTRAINT "claim_refusals_app_id_user_id_mission_id_pk" PRIMARY KEY("app_id","user_id","mission_id")
);
