ALTER TABLE "chat_messages" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "chat_mutes" ADD COLUMN "network" text;--> statement-breakpoint
CREATE INDEX "chat_messages_sender_idx" ON "chat_messages" USING btree ("sender","created_at");