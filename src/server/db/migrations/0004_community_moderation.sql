CREATE TABLE "chat_moderation_log" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"detail" text,
	"staff_username" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_mutes" (
	"sender" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "muted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_subscribers" ADD COLUMN "status" text DEFAULT 'confirmed' NOT NULL;--> statement-breakpoint
ALTER TABLE "prayer_requests" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chat_moderation_log_created_idx" ON "chat_moderation_log" USING btree ("created_at");--> statement-breakpoint
-- Addresses unsubscribed before the opt-in state existed stay unsubscribed.
UPDATE "email_subscribers" SET "status" = 'unsubscribed' WHERE "is_active" = 'false';--> statement-breakpoint
-- Requests already in the Prayer tab before the unread count existed count as read.
UPDATE "prayer_requests" SET "read_at" = "created_at";--> statement-breakpoint
ALTER TABLE "email_subscribers" ADD CONSTRAINT "email_subscribers_status_active" CHECK ("email_subscribers"."status" in ('pending', 'confirmed', 'unsubscribed') and ("email_subscribers"."status" = 'confirmed') = ("email_subscribers"."is_active" = 'true'));