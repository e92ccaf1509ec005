CREATE TABLE "catalogue_changes" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "catalogue_changes_one_row" CHECK ("catalogue_changes"."id" = 1)
);
