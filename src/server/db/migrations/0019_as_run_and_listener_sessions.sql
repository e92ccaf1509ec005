CREATE TABLE "as_run" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"media_id" text,
	"title" text NOT NULL,
	"artist" text DEFAULT '' NOT NULL,
	"album" text DEFAULT '' NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"isrc" text DEFAULT '' NOT NULL,
	"composer" text DEFAULT '' NOT NULL,
	"ccli_song_number" text DEFAULT '' NOT NULL,
	"licence_class" text,
	"programme_id" text,
	"programme_title" text,
	"presenter_id" text,
	"listeners_peak" integer,
	"listeners_average" real,
	CONSTRAINT "as_run_kind" CHECK ("as_run"."kind" in ('library', 'live', 'fill', 'relay')),
	CONSTRAINT "as_run_reason" CHECK ("as_run"."reason" in ('schedule', 'rotation', 'fill', 'presenter', 'station_password', 'relay'))
);
--> statement-breakpoint
CREATE TABLE "listener_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone NOT NULL,
	"bitrate" smallint NOT NULL,
	"player" text NOT NULL,
	"country" text,
	"via" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "as_run_started_idx" ON "as_run" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "listener_sessions_started_idx" ON "listener_sessions" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "listener_sessions_ended_idx" ON "listener_sessions" USING btree ("ended_at");