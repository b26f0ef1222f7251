-- The public pages' caches empty per city (decision 162, amended): each changed row of a school, a
-- benefit, a plan or a membership tells every server process the city of its school ('sp/sao-paulo',
-- the address's own segments), or '*' when the change reaches pages of every city (a benefit open to
-- the whole network, a school with no city, a TRUNCATE). PostgreSQL folds one transaction's identical
-- notifications into one.
CREATE FUNCTION public_pages_city_of(uf_key text, city_key text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN uf_key IS NULL OR coalesce(city_key, '') = '' THEN '*'
    ELSE lower(uf_key) || '/' || btrim(regexp_replace(city_key, '[^a-z0-9]+', '-', 'g'), '-') END
$$;
--> statement-breakpoint
CREATE FUNCTION public_pages_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb[] := array_remove(ARRAY[
    CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END,
    CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END], NULL);
  r jsonb;
  city text;
BEGIN
  FOREACH r IN ARRAY changed LOOP
    IF TG_TABLE_NAME = 'schools' THEN
      city := public_pages_city_of(r->>'uf_key', r->>'city_key');
    ELSIF TG_TABLE_NAME = 'discounts' AND r->>'discount_scope' = 'all_except_own' THEN
      city := '*';
    ELSE
      SELECT public_pages_city_of(s.uf_key, s.city_key) INTO city FROM schools s WHERE s.id = (r->>'school_id')::uuid;
    END IF;
    PERFORM pg_notify('public_pages_changed', coalesce(city, '*'));
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER public_pages_schools ON schools;
--> statement-breakpoint
DROP TRIGGER public_pages_discounts ON discounts;
--> statement-breakpoint
DROP TRIGGER public_pages_subscriptions ON subscriptions;
--> statement-breakpoint
DROP TRIGGER public_pages_memberships ON school_memberships;
--> statement-breakpoint
CREATE TRIGGER public_pages_schools AFTER INSERT OR UPDATE OR DELETE ON schools FOR EACH ROW EXECUTE FUNCTION public_pages_notify_row();
--> statement-breakpoint
CREATE TRIGGER public_pages_discounts AFTER INSERT OR UPDATE OR DELETE ON discounts FOR EACH ROW EXECUTE FUNCTION public_pages_notify_row();
--> statement-breakpoint
CREATE TRIGGER public_pages_subscriptions AFTER INSERT OR UPDATE OR DELETE ON subscriptions FOR EACH ROW EXECUTE FUNCTION public_pages_notify_row();
--> statement-breakpoint
CREATE TRIGGER public_pages_memberships AFTER INSERT OR UPDATE OR DELETE ON school_memberships FOR EACH ROW EXECUTE FUNCTION public_pages_notify_row();
--> statement-breakpoint
-- TRUNCATE has no rows: every page may have changed (the old statement function sends the table's name, read as '*').
CREATE TRIGGER public_pages_schools_truncate AFTER TRUNCATE ON schools FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_discounts_truncate AFTER TRUNCATE ON discounts FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_subscriptions_truncate AFTER TRUNCATE ON subscriptions FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
--> statement-breakpoint
CREATE TRIGGER public_pages_memberships_truncate AFTER TRUNCATE ON school_memberships FOR EACH STATEMENT EXECUTE FUNCTION public_pages_notify();
