ALTER TABLE "apps" ADD COLUMN "previous_webhook_secret" text;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "previous_webhook_secret_expires_at" bigint;