-- Custom migration (decision 145): the marketplace's read model is kept by triggers, so every
-- statement that changes what a city can see (the app's, the tests' factories, an admin's psql)
-- keeps it, in the same transaction.
--
-- Place keys (rule 4 of DECISIONS.md, as apps/server/src/routers/marketplace/visibility.ts words
-- it): "same city" is coalesce(s.city_id = ms.city_id, names equal, false), so two schools that
-- both have a city id compare ids, and otherwise compare UF + lower(city); the same for
-- neighborhoods (UF + city + neighborhood names). An offer is found by its school's id key, and by
-- a name key that says whether its school has an id; a parent asks for its own id key, the name
-- key of schools without an id, and, only when its own school has no id, the name key of schools
-- with one. Each (offer, parent) pair meets in at most one key.
CREATE FUNCTION marketplace_offer_keys(scope discount_scope, city_id integer, uf text, city text, neighborhood_id integer, neighborhood text)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(CASE scope
    WHEN 'all_except_own' THEN ARRAY[json_build_array('all')::text]
    WHEN 'city' THEN ARRAY[
      CASE WHEN city_id IS NOT NULL THEN json_build_array('city', city_id)::text END,
      CASE WHEN uf IS NOT NULL AND city IS NOT NULL THEN json_build_array('city name', city_id IS NOT NULL, uf, lower(city))::text END]
    WHEN 'neighborhood' THEN ARRAY[
      CASE WHEN neighborhood_id IS NOT NULL THEN json_build_array('neighborhood', neighborhood_id)::text END,
      CASE WHEN uf IS NOT NULL AND city IS NOT NULL AND neighborhood IS NOT NULL
        THEN json_build_array('neighborhood name', neighborhood_id IS NOT NULL, uf, lower(city), lower(neighborhood))::text END]
  END, NULL)
$$;
--> statement-breakpoint
-- The 7 keys a parent whose main school is at this place asks for (null: none), in a fixed order.
CREATE FUNCTION marketplace_viewer_keys(city_id integer, uf text, city text, neighborhood_id integer, neighborhood text)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[
    json_build_array('all')::text,
    CASE WHEN city_id IS NOT NULL THEN json_build_array('city', city_id)::text END,
    CASE WHEN uf IS NOT NULL AND city IS NOT NULL THEN json_build_array('city name', false, uf, lower(city))::text END,
    CASE WHEN city_id IS NULL AND uf IS NOT NULL AND city IS NOT NULL THEN json_build_array('city name', true, uf, lower(city))::text END,
    CASE WHEN neighborhood_id IS NOT NULL THEN json_build_array('neighborhood', neighborhood_id)::text END,
    CASE WHEN uf IS NOT NULL AND city IS NOT NULL AND neighborhood IS NOT NULL
      THEN json_build_array('neighborhood name', false, uf, lower(city), lower(neighborhood))::text END,
    CASE WHEN neighborhood_id IS NULL AND uf IS NOT NULL AND city IS NOT NULL AND neighborhood IS NOT NULL
      THEN json_build_array('neighborhood name', true, uf, lower(city), lower(neighborhood))::text END]
$$;
--> statement-breakpoint
-- What marketplace_offers must hold, computed from scratch: rules 1 (active), 3 (an active Silver or
-- Gold plan) and 4 (the place keys) of DECISIONS.md.
CREATE VIEW marketplace_offers_expected AS
  SELECT d.school_id, d.id AS discount_id, k.place_key, p.plan_type = 'gold' AS gold, d.created_at, coalesce(s.category_id, d.category_id) AS niche_id
  FROM discounts d
  JOIN schools s ON s.id = d.school_id
  JOIN subscriptions p ON p.school_id = d.school_id AND p.status = 'active' AND p.plan_type IN ('silver', 'gold')
  CROSS JOIN LATERAL unnest(marketplace_offer_keys(d.discount_scope, s.city_id, s.uf, s.city, s.neighborhood_id, s.neighborhood)) AS k(place_key)
  WHERE d.status = 'active';
--> statement-breakpoint
-- Brings one school's rows (or one benefit's, when p_discount is given) to what the view says,
-- touching only the rows that differ. One refresh per school at a time: the lock is held to the
-- end of the transaction, and under READ COMMITTED each statement after it reads everything
-- committed before it, so whichever of two concurrent writers refreshes last sees both writes.
CREATE FUNCTION marketplace_offers_refresh(p_school uuid, p_discount uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('marketplace_offers ' || p_school::text, 0));
  DELETE FROM marketplace_offers o
  WHERE o.school_id = p_school AND (p_discount IS NULL OR o.discount_id = p_discount)
    AND NOT EXISTS (
      SELECT 1 FROM marketplace_offers_expected e
      WHERE e.school_id = o.school_id AND e.discount_id = o.discount_id AND e.place_key = o.place_key
        AND e.gold = o.gold AND e.created_at = o.created_at AND e.niche_id IS NOT DISTINCT FROM o.niche_id);
  INSERT INTO marketplace_offers (school_id, discount_id, place_key, gold, created_at, niche_id)
  SELECT e.school_id, e.discount_id, e.place_key, e.gold, e.created_at, e.niche_id
  FROM marketplace_offers_expected e WHERE e.school_id = p_school AND (p_discount IS NULL OR e.discount_id = p_discount)
  EXCEPT
  SELECT o.school_id, o.discount_id, o.place_key, o.gold, o.created_at, o.niche_id
  FROM marketplace_offers o WHERE o.school_id = p_school AND (p_discount IS NULL OR o.discount_id = p_discount);
END
$$;
--> statement-breakpoint
-- Every row from scratch: for bulk loads that skip triggers (the scale generator) and this migration.
CREATE FUNCTION marketplace_offers_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM marketplace_offers;
  INSERT INTO marketplace_offers (school_id, discount_id, place_key, gold, created_at, niche_id)
  SELECT school_id, discount_id, place_key, gold, created_at, niche_id FROM marketplace_offers_expected;
$$;
--> statement-breakpoint
CREATE FUNCTION marketplace_offers_on_discount() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.school_id <> NEW.school_id) THEN
    PERFORM marketplace_offers_refresh(OLD.school_id, OLD.id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM marketplace_offers_refresh(NEW.school_id, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A claim's slot update sets number_of_students and updated_at only: no trigger fires for it.
CREATE TRIGGER marketplace_offers_discount_written AFTER INSERT OR DELETE ON discounts
  FOR EACH ROW EXECUTE FUNCTION marketplace_offers_on_discount();
--> statement-breakpoint
CREATE TRIGGER marketplace_offers_discount_changed AFTER UPDATE OF status, discount_scope, category_id, school_id, created_at ON discounts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.discount_scope IS DISTINCT FROM NEW.discount_scope
    OR OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.school_id IS DISTINCT FROM NEW.school_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION marketplace_offers_on_discount();
--> statement-breakpoint
CREATE FUNCTION marketplace_offers_on_school() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM marketplace_offers_refresh(NEW.id, NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A school with benefits cannot be deleted (discounts.school_id is ON DELETE RESTRICT): no delete trigger.
CREATE TRIGGER marketplace_offers_school_changed AFTER UPDATE OF uf, city, neighborhood, city_id, neighborhood_id, category_id ON schools
  FOR EACH ROW WHEN (OLD.uf IS DISTINCT FROM NEW.uf OR OLD.city IS DISTINCT FROM NEW.city OR OLD.neighborhood IS DISTINCT FROM NEW.neighborhood
    OR OLD.city_id IS DISTINCT FROM NEW.city_id OR OLD.neighborhood_id IS DISTINCT FROM NEW.neighborhood_id OR OLD.category_id IS DISTINCT FROM NEW.category_id)
  EXECUTE FUNCTION marketplace_offers_on_school();
--> statement-breakpoint
CREATE FUNCTION marketplace_offers_on_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.school_id <> NEW.school_id) THEN
    PERFORM marketplace_offers_refresh(OLD.school_id, NULL);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM marketplace_offers_refresh(NEW.school_id, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER marketplace_offers_subscription_written AFTER INSERT OR DELETE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION marketplace_offers_on_subscription();
--> statement-breakpoint
CREATE TRIGGER marketplace_offers_subscription_changed AFTER UPDATE OF school_id, plan_type, status ON subscriptions
  FOR EACH ROW WHEN (OLD.school_id IS DISTINCT FROM NEW.school_id OR OLD.plan_type IS DISTINCT FROM NEW.plan_type OR OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION marketplace_offers_on_subscription();
--> statement-breakpoint
SELECT marketplace_offers_rebuild();
