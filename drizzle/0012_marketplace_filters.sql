-- Issue 31, decision 170: /home's filters, search and sorts read the marketplace's read model
-- (decision 145). The benefit's niche, modality, fee after discount, percentage, "sold out",
-- "requires a verified enrollment" and its folded names are copied into marketplace_offers by the
-- same view and triggers, so the rules stay in one place and the filters are index-only.
-- pg_trgm (PostgreSQL contrib, trusted; PGlite loads its contrib build) gives typo tolerance.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- The rows are recomputed at the end of this migration (NOT NULL columns cannot be added to rows).
DELETE FROM marketplace_offers;--> statement-breakpoint
DROP INDEX "marketplace_offers_page_idx";--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "category_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "modality_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "discounted_fee" numeric(10, 2) NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "discount_percentage" numeric(5, 2) NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "sold_out" boolean NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "requires_verified" boolean NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "search_text" text NOT NULL;--> statement-breakpoint
CREATE INDEX "marketplace_offers_page_idx" ON "marketplace_offers" USING btree ("place_key","gold" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"discount_id","school_id","niche_id","category_id","modality_id","discounted_fee","discount_percentage","sold_out","requires_verified");--> statement-breakpoint
-- Accent-, case- and spacing-free text: the same as packages/db/src/fold.ts's foldSql (immutable:
-- translate and lower, not unaccent, which is not immutable and needs its dictionary).
CREATE FUNCTION marketplace_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(translate(regexp_replace(btrim(t), '[[:space:]]+', ' ', 'g'), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy'))
$$;
--> statement-breakpoint
-- True when every word of the (folded) search is in the text, or close to one of its words
-- (pg_trgm's word_similarity, for typos: "ingels", "robotca").
CREATE FUNCTION marketplace_search_matches(search_text text, query text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT NOT EXISTS (
    SELECT 1 FROM unnest(string_to_array(marketplace_fold(query), ' ')) AS w(word)
    WHERE w.word <> '' AND strpos(search_text, w.word) = 0 AND word_similarity(w.word, search_text) < 0.4)
$$;
--> statement-breakpoint
-- New columns are appended (CREATE OR REPLACE VIEW keeps the existing ones in place).
CREATE OR REPLACE VIEW marketplace_offers_expected AS
  SELECT d.school_id, d.id AS discount_id, k.place_key, p.plan_type = 'gold' AS gold, d.created_at, coalesce(s.category_id, d.category_id) AS niche_id,
    d.category_id, d.modality_id, d.discounted_fee, d.discount_percentage, d.number_of_students = 0 AS sold_out,
    d.requires_verified_enrollment AS requires_verified,
    marketplace_fold(d.class_name || ' ' || coalesce(m.name, '') || ' ' || s.name) AS search_text
  FROM discounts d
  JOIN schools s ON s.id = d.school_id
  LEFT JOIN modalities m ON m.id = d.modality_id
  JOIN subscriptions p ON p.school_id = d.school_id AND p.status = 'active' AND p.plan_type IN ('silver', 'gold')
  CROSS JOIN LATERAL unnest(marketplace_offer_keys(d.discount_scope, s.city_id, s.uf, s.city, s.neighborhood_id, s.neighborhood)) AS k(place_key)
  WHERE d.status = 'active';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION marketplace_offers_refresh(p_school uuid, p_discount uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('marketplace_offers ' || p_school::text, 0));
  DELETE FROM marketplace_offers o
  WHERE o.school_id = p_school AND (p_discount IS NULL OR o.discount_id = p_discount)
    AND NOT EXISTS (
      SELECT 1 FROM marketplace_offers_expected e
      WHERE e.school_id = o.school_id AND e.discount_id = o.discount_id AND e.place_key = o.place_key
        AND (e.gold, e.created_at, e.niche_id, e.category_id, e.modality_id, e.discounted_fee, e.discount_percentage, e.sold_out, e.requires_verified, e.search_text)
          IS NOT DISTINCT FROM (o.gold, o.created_at, o.niche_id, o.category_id, o.modality_id, o.discounted_fee, o.discount_percentage, o.sold_out, o.requires_verified, o.search_text));
  INSERT INTO marketplace_offers (school_id, discount_id, place_key, gold, created_at, niche_id, category_id, modality_id, discounted_fee, discount_percentage, sold_out, requires_verified, search_text)
  SELECT e.school_id, e.discount_id, e.place_key, e.gold, e.created_at, e.niche_id, e.category_id, e.modality_id, e.discounted_fee, e.discount_percentage, e.sold_out, e.requires_verified, e.search_text
  FROM marketplace_offers_expected e WHERE e.school_id = p_school AND (p_discount IS NULL OR e.discount_id = p_discount)
  EXCEPT
  SELECT o.school_id, o.discount_id, o.place_key, o.gold, o.created_at, o.niche_id, o.category_id, o.modality_id, o.discounted_fee, o.discount_percentage, o.sold_out, o.requires_verified, o.search_text
  FROM marketplace_offers o WHERE o.school_id = p_school AND (p_discount IS NULL OR o.discount_id = p_discount);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION marketplace_offers_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM marketplace_offers;
  INSERT INTO marketplace_offers (school_id, discount_id, place_key, gold, created_at, niche_id, category_id, modality_id, discounted_fee, discount_percentage, sold_out, requires_verified, search_text)
  SELECT school_id, discount_id, place_key, gold, created_at, niche_id, category_id, modality_id, discounted_fee, discount_percentage, sold_out, requires_verified, search_text
  FROM marketplace_offers_expected;
$$;
--> statement-breakpoint
-- The benefit's columns the filters read. A claim's slot update fires it only when it takes the last
-- slot (or a slot comes back to a sold-out benefit): other claims stay trigger-free and HOT.
DROP TRIGGER marketplace_offers_discount_changed ON discounts;--> statement-breakpoint
CREATE TRIGGER marketplace_offers_discount_changed AFTER UPDATE OF status, discount_scope, category_id, school_id, created_at,
    modality_id, class_name, discounted_fee, discount_percentage, requires_verified_enrollment, number_of_students ON discounts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.discount_scope IS DISTINCT FROM NEW.discount_scope
    OR OLD.category_id IS DISTINCT FROM NEW.category_id OR OLD.school_id IS DISTINCT FROM NEW.school_id OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.modality_id IS DISTINCT FROM NEW.modality_id OR OLD.class_name IS DISTINCT FROM NEW.class_name
    OR OLD.discounted_fee IS DISTINCT FROM NEW.discounted_fee OR OLD.discount_percentage IS DISTINCT FROM NEW.discount_percentage
    OR OLD.requires_verified_enrollment IS DISTINCT FROM NEW.requires_verified_enrollment
    OR (OLD.number_of_students = 0) IS DISTINCT FROM (NEW.number_of_students = 0))
  EXECUTE FUNCTION marketplace_offers_on_discount();
--> statement-breakpoint
-- The school's name is searched.
DROP TRIGGER marketplace_offers_school_changed ON schools;--> statement-breakpoint
CREATE TRIGGER marketplace_offers_school_changed AFTER UPDATE OF uf, city, neighborhood, city_id, neighborhood_id, category_id, name ON schools
  FOR EACH ROW WHEN (OLD.uf IS DISTINCT FROM NEW.uf OR OLD.city IS DISTINCT FROM NEW.city OR OLD.neighborhood IS DISTINCT FROM NEW.neighborhood
    OR OLD.city_id IS DISTINCT FROM NEW.city_id OR OLD.neighborhood_id IS DISTINCT FROM NEW.neighborhood_id OR OLD.category_id IS DISTINCT FROM NEW.category_id
    OR OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION marketplace_offers_on_school();
--> statement-breakpoint
SELECT marketplace_offers_rebuild();
