CREATE TABLE "transcripts" (
	"media_item_id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"engine" text,
	"language" text DEFAULT 'en' NOT NULL,
	"words" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"edited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transcripts_status" CHECK ("transcripts"."status" in ('waiting', 'working', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "subtitles" ADD COLUMN "automatic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transcripts" ADD CONSTRAINT "transcripts_media_item_id_media_items_id_fk" FOREIGN KEY ("media_item_id") REFERENCES "public"."media_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transcripts_status_idx" ON "transcripts" USING btree ("status");