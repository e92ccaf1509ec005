CREATE TABLE "notification_targets" (
	"target" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"events" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"last_at" timestamp with time zone,
	"last_ok" boolean,
	"last_message" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
