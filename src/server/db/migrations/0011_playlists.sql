CREATE TABLE "playlist_items" (
	"playlist_id" text NOT NULL,
	"media_item_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "playlist_items_playlist_id_position_pk" PRIMARY KEY("playlist_id","position")
);
--> statement-breakpoint
CREATE TABLE "playlists" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"name" text NOT NULL,
	"order" text DEFAULT 'shuffle' NOT NULL,
	"in_rotation" boolean DEFAULT false NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL,
	"insert_kind" text,
	"insert_every_songs" integer,
	"insert_every_minutes" integer,
	"no_repeat_title_minutes" integer DEFAULT 120 NOT NULL,
	"no_repeat_artist_minutes" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playlists_order" CHECK ("playlists"."order" in ('in_order', 'shuffle')),
	CONSTRAINT "playlists_insert_kind" CHECK ("playlists"."insert_kind" is null or "playlists"."insert_kind" in ('station_id', 'jingle')),
	CONSTRAINT "playlists_weight" CHECK ("playlists"."weight" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "playlist_items" ADD CONSTRAINT "playlist_items_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_items" ADD CONSTRAINT "playlist_items_media_item_id_media_items_id_fk" FOREIGN KEY ("media_item_id") REFERENCES "public"."media_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "playlist_items_media_idx" ON "playlist_items" USING btree ("playlist_id","media_item_id");--> statement-breakpoint
CREATE INDEX "playlist_items_media_item_idx" ON "playlist_items" USING btree ("media_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "playlists_name_idx" ON "playlists" USING btree (lower("name"));