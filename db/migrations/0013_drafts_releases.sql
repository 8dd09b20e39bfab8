CREATE TABLE "catalog_drafts" (
	"app_id" text PRIMARY KEY NOT NULL,
	"catalog" jsonb NOT NULL,
	"base_release" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	"updated_by" text NOT NULL,
	"scheduled_at" bigint,
	"scheduled_by" text
);
--> statement-breakpoint
CREATE TABLE "catalog_releases" (
	"app_id" text NOT NULL,
	"release" integer NOT NULL,
	"catalog" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	"published_at" bigint NOT NULL,
	"published_by" text NOT NULL,
	CONSTRAINT "catalog_releases_app_id_release_pk" PRIMARY KEY("app_id","release")
);
--> statement-breakpoint
ALTER TABLE "catalog_drafts" ADD CONSTRAINT "catalog_drafts_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_releases" ADD CONSTRAINT "catalog_releases_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_drafts_scheduled_idx" ON "catalog_drafts" USING btree ("scheduled_at");