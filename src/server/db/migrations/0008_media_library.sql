CREATE TABLE "media_items" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"title" text NOT NULL,
	"artist" text DEFAULT '' NOT NULL,
	"album" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'analysing' NOT NULL,
	"error" text,
	"original_name" text NOT NULL,
	"path" text NOT NULL,
	"format" text NOT NULL,
	"sample_rate" integer,
	"channels" integer,
	"size_bytes" bigint NOT NULL,
	"duration_seconds" double precision,
	"loudness_lufs" double precision,
	"true_peak_dbtp" double precision,
	"cue_in_seconds" double precision,
	"cue_out_seconds" double precision,
	"artwork_url" text,
	"subtitle_languages" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_items_path_unique" UNIQUE("path"),
	CONSTRAINT "media_items_kind" CHECK ("media_items"."kind" in ('music', 'sermon', 'devotion', 'jingle', 'station_id', 'announcement')),
	CONSTRAINT "media_items_status" CHECK ("media_items"."status" in ('analysing', 'ready', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "media_items_created_idx" ON "media_items" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "media_items_status_idx" ON "media_items" USING btree ("status");