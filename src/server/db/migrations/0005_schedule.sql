CREATE TABLE "program_overrides" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"program_id" text,
	"title" text,
	"speaker" text,
	"ministry_focus" text,
	"description" text,
	"start_time" text,
	"duration" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "program_overrides_kind" CHECK ("program_overrides"."kind" in ('cancel', 'replace', 'add') and ("program_overrides"."kind" = 'add') = ("program_overrides"."program_id" is null)),
	CONSTRAINT "program_overrides_fields" CHECK ("program_overrides"."kind" = 'cancel' or ("program_overrides"."title" is not null and "program_overrides"."speaker" is not null and "program_overrides"."start_time" is not null and "program_overrides"."duration" is not null))
);
--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "ministry_focus" text;--> statement-breakpoint
ALTER TABLE "program_overrides" ADD CONSTRAINT "program_overrides_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "program_overrides_date_program_idx" ON "program_overrides" USING btree ("date","program_id");