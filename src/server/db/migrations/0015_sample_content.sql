ALTER TABLE "featured_content" ADD COLUMN "sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "programs" ADD COLUMN "sample" boolean DEFAULT false NOT NULL;