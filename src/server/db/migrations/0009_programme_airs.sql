ALTER TABLE "program_overrides" ADD COLUMN "airs" jsonb;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "airs" jsonb;