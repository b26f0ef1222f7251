CREATE TYPE "public"."cancel_reason" AS ENUM('desistencia', 'nao_matriculado', 'dados_incorretos', 'outro');--> statement-breakpoint
ALTER TYPE "public"."voucher_status" ADD VALUE 'cancelado';--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "cancel_reason" "cancel_reason";--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD COLUMN "cancelled_by" uuid;--> statement-breakpoint
ALTER TABLE "discounts" ADD COLUMN "hold_days" integer;--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD CONSTRAINT "discount_transactions_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "discount_transactions_reserved_idx" ON "discount_transactions" USING btree ("valid_until") WHERE status = 'reservado';--> statement-breakpoint
ALTER TABLE "discount_transactions" ADD CONSTRAINT "discount_transactions_cancel_reason" CHECK (("discount_transactions"."cancel_reason" is not null) = ("discount_transactions"."status"::text = 'cancelado'));--> statement-breakpoint
ALTER TABLE "discounts" ADD CONSTRAINT "discounts_hold_days_range" CHECK ("discounts"."hold_days" is null or "discounts"."hold_days" between 1 and 365);