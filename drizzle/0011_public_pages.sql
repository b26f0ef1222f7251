ALTER TABLE "schools" ADD COLUMN "public_page" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "schools" ADD COLUMN "public_hidden_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "schools_public_city_idx" ON "schools" USING btree ("uf_key",btrim(regexp_replace("city_key", '[^a-z0-9]+', '-', 'g'), '-'));--> statement-breakpoint
-- The public pages' caches (decision 162): every statement that changes what a public page shows
-- (a school, its staff, its plan, a benefit or its slots) tells every server process, at commit;
-- PostgreSQL folds the identical notifications of one transaction into one.
CREATE FUNCTION public_pages_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('public_pages_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER public_pages_schools AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON schools FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_discounts AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON discounts FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_subscriptions AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subscriptions FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_memberships AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON school_memberships FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
