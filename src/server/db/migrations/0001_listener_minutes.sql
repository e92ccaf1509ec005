CREATE TABLE "listener_minutes" (
	"minute" timestamp with time zone PRIMARY KEY NOT NULL,
	"listeners" integer NOT NULL,
	"peak" integer NOT NULL,
	"listening_seconds" integer NOT NULL
);
