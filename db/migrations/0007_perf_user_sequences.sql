CREATE TABLE "user_sequences" (
	"app_id" text NOT NULL,
	"user_id" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "user_sequences_app_id_user_id_pk" PRIMARY KEY("app_id","user_id")
);
