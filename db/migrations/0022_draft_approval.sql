ALTER TABLE "apps" ADD COLUMN "require_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_drafts" ADD COLUMN "approval_requested_by" text;--> statement-breakpoint
ALTER TABLE "catalog_drafts" ADD COLUMN "approval_requested_at" bigint;--> statement-breakpoint
ALTER TABLE "catalog_drafts" ADD COLUMN "approval_publish_at" bigint;--> statement-breakpoint
ALTER TABLE "catalog_drafts" ADD COLUMN "approval_rejection" jsonb;