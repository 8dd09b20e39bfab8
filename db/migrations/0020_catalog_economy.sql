CREATE TABLE "catalog_economy" (
	"app_id" text PRIMARY KEY NOT NULL,
	"currencies" jsonb,
	"items" jsonb,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_economy" ADD CONSTRAINT "catalog_economy_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;