ALTER TABLE "media_items" ADD COLUMN "isrc" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "label" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "composer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "media_items" ADD COLUMN "ccli_song_number" text DEFAULT '' NOT NULL;