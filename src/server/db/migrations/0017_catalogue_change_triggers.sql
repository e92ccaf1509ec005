-- Every statement that changes the library or the playlists counts one change, in its own transaction,
-- so a reader that saw the same row saw the same catalogue (see schema.ts, catalogueChanges).
CREATE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "catalogue_changes" ("id", "version") VALUES (1, 1)
    ON CONFLICT ("id") DO UPDATE SET "version" = "catalogue_changes"."version" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "media_items_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "playlists_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "playlists"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "playlist_items_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "playlist_items"
  FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
INSERT INTO "catalogue_changes" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
