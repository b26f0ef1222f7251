ALTER TABLE "discount_transactions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discounts" ADD COLUMN "hold_days" integer;--> statement-breakpoint
CREATE INDEX "discount_transactions_reserved_idx" ON "discount_transactions" USING btree ("valid_until") WHERE status = 'reservado';--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_hold_days_range" CHECK ("discounts"."hold_days" is null or "discounts"."hold_days" between 1 and 365);