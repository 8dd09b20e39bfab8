ALTER TABLE "app_users" ADD COLUMN "attributes" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "audience" jsonb;--> statement-breakpoint
ALTER TABLE "missions" ADD COLUMN "audience" jsonb;