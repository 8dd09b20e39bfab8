CREATE TABLE "themes" (
	"app_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"primary_color" text NOT NULL,
	"accent_color" text,
	"background_color" text,
	"text_color" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "themes_app_id_id_pk" PRIMARY KEY("app_id","id")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "theme_id" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "themes" ADD CONSTRAINT "themes_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_theme_fk" FOREIGN KEY ("app_id","theme_id") REFERENCES "public"."themes"("app_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaign_one_theme" CHECK ("campaigns"."theme" is null or "campaigns"."theme_id" is null);