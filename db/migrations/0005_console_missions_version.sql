ALTER TABLE "missions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "events_app_received_idx" ON "events" USING btree ("app_id","received_at");