DROP INDEX "discounts_open_platform_idx";--> statement-breakpoint
CREATE INDEX "subscriptions_active_gold_idx" ON "subscriptions" USING btree ("school_id") WHERE status = 'active' and plan_type = 'gold';--> statement-breakpoint
CREATE INDEX "discounts_local_active_idx" ON "discounts" USING btree ("school_id","discount_scope","created_at","id") WHERE discount_scope <> 'all_except_own' and status = 'active';--> statement-breakpoint
CREATE INDEX "discounts_open_platform_idx" ON "discounts" USING btree ("school_id","created_at","id") WHERE discount_scope = 'all_except_own' and status = 'active';