ALTER TABLE "prayer_requests" ADD COLUMN "prayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prayer_requests" ADD COLUMN "prayed_by" text;--> statement-breakpoint
CREATE INDEX "prayer_requests_created_at" ON "prayer_requests" USING btree ("created_at");