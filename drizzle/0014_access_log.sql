CREATE TABLE "incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"window_from" timestamp with time zone NOT NULL,
	"window_to" timestamp with time zone NOT NULL,
	"school_id" uuid,
	"nature" text NOT NULL,
	"accounts_affected" integer DEFAULT 0 NOT NULL,
	"children_affected" integer DEFAULT 0 NOT NULL,
	"measures" text NOT NULL,
	"communicated_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher_desk_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"holder_id" uuid NOT NULL,
	"voucher_id" uuid NOT NULL,
	"school_id" uuid,
	"viewer_id" uuid,
	"organization_name" text,
	"viewer_role" text,
	"viewer_first_name" text,
	"action" text NOT NULL,
	"request_id" text,
	"via_api_token" boolean DEFAULT false NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "action" text DEFAULT 'opening' NOT NULL;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "organization_name" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "viewer_role" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "viewer_first_name" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "purpose" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "ticket" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD COLUMN "via_api_token" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_desk_views" ADD CONSTRAINT "voucher_desk_views_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_desk_views" ADD CONSTRAINT "voucher_desk_views_voucher_id_discount_transactions_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."discount_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_desk_views" ADD CONSTRAINT "voucher_desk_views_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_desk_views" ADD CONSTRAINT "voucher_desk_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "incidents_created_idx" ON "incidents" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "voucher_desk_views_holder_idx" ON "voucher_desk_views" USING btree ("holder_id","viewed_at");--> statement-breakpoint
CREATE INDEX "voucher_desk_views_viewed_idx" ON "voucher_desk_views" USING btree ("viewed_at");--> statement-breakpoint
CREATE INDEX "enrollment_proof_views_viewed_idx" ON "enrollment_proof_views" USING btree ("viewed_at");--> statement-breakpoint
-- Rows recorded before issue 27: a school's staff opened to verify the enrollment; the school's name as it is now.
UPDATE "enrollment_proof_views" v SET "purpose" = 'verificacao_matricula', "organization_name" = s."name", "viewer_role" = 'Equipe da escola'
  FROM "schools" s WHERE s."id" = v."viewer_school_id";--> statement-breakpoint
-- Append-only access logs (decision 190): UPDATE and DELETE raise, except
--   * the retention purge, which runs `set local elo.purge = 'on'` in its own transaction;
--   * the foreign keys' own actions (an account deletion's cascade, a viewer's or school's key set to
--     null), which run inside the referential trigger (pg_trigger_depth() > 1);
--   * an UPDATE that changes nothing but the column named as the trigger's argument (a school merge
--     re-points the school's key; the name recorded at the time stays).
CREATE OR REPLACE FUNCTION "elo_access_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('elo.purge', true), '') = 'on' OR pg_trigger_depth() > 1 THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND TG_NARGS > 0 AND (to_jsonb(NEW) - TG_ARGV[0]) = (to_jsonb(OLD) - TG_ARGV[0]) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'the access log % is append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "enrollment_proof_views_append_only" BEFORE UPDATE OR DELETE ON "enrollment_proof_views"
  FOR EACH ROW EXECUTE FUNCTION "elo_access_log_append_only"('viewer_school_id');--> statement-breakpoint
CREATE TRIGGER "voucher_desk_views_append_only" BEFORE UPDATE OR DELETE ON "voucher_desk_views"
  FOR EACH ROW EXECUTE FUNCTION "elo_access_log_append_only"('school_id');--> statement-breakpoint
-- TRUNCATE would bypass row triggers.
CREATE TRIGGER "enrollment_proof_views_no_truncate" BEFORE TRUNCATE ON "enrollment_proof_views"
  FOR EACH STATEMENT EXECUTE FUNCTION "elo_access_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "voucher_desk_views_no_truncate" BEFORE TRUNCATE ON "voucher_desk_views"
  FOR EACH STATEMENT EXECUTE FUNCTION "elo_access_log_append_only"();
