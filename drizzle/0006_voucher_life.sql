CREATE TYPE "public"."cancel_reason" AS ENUM('desistencia', 'nao_matriculado', 'dados_incorretos', 'outro');--> statement-breakpoint
CREATE TYPE "public"."waitlist_status" AS ENUM('waiting', 'offered', 'claimed', 'lapsed', 'left');--> statement-breakpoint
ALTER TYPE "public"."voucher_status" ADD VALUE 'cancelado';--> statement-breakpoint
CREATE TABLE "waitlist_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"discount_id" uuid NOT NULL,
	"user_id" uuid,
	"status" "waitlist_status" DEFAULT 'waiting' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"transaction_id" uuid
);
--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "cancel_reason" "cancel_reason";--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "cancelled_by" uuid;--> statement-breakpoint
ALTER TABLE "discounts" ADD COLUMN "hold_days" integer;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_discount_id_discounts_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_transaction_id_discount_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."discount_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_open_uq" ON "waitlist_entries" USING btree ("discount_id","user_id") WHERE status in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "waitlist_entries_queue_idx" ON "waitlist_entries" USING btree ("discount_id","created_at","id") WHERE status = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entries_offers_idx" ON "waitlist_entries" USING btree ("offer_expires_at") WHERE status = 'offered';--> statement-breakpoint
CREATE INDEX "waitlist_entries_user_idx" ON "waitlist_entries" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD CONSTRAINT "discount_transactions_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_transactions_reserved_idx" ON "discount_transactions" USING btree ("valid_until") WHERE status = 'reservado';--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD CONSTRAINT "discount_transactions_cancel_reason" CHECK (("discount_transactions"."cancel_reason" is not null) = ("discount_transactions"."status"::text = 'cancelado'));--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_hold_days_range" CHECK ("discounts"."hold_days" is null or "discounts"."hold_days" between 1 and 365);