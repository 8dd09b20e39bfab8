CREATE TABLE "analytics_rollups" (
	"app_id" text NOT NULL,
	"bucket_start" bigint NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"shard" smallint NOT NULL,
	"count" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "analytics_rollups_app_id_bucket_start_kind_key_shard_pk" PRIMARY KEY("app_id","bucket_start","kind","key","shard")
);
--> statement-breakpoint
DROP TABLE "analytics_points" CASCADE;--> statement-breakpoint
CREATE INDEX "analytics_rollups_bucket_idx" ON "analytics_rollups" USING btree ("bucket_start");