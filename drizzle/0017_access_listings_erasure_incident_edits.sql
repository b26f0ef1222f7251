CREATE TABLE "erased_access_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_hash" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text,
	"viewer_id" uuid,
	"viewer_school_id" uuid,
	"organization_name" text,
	"viewer_role" text,
	"viewer_first_name" text,
	"purpose" text,
	"ticket" text,
	"request_id" text,
	"via_api_token" boolean DEFAULT false NOT NULL,
	"viewed_at" timestamp with time zone NOT NULL,
	"erased_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incident_id" uuid NOT NULL,
	"changes" jsonb NOT NULL,
	"changed_by" uuid,
	"changed_by_email" text,
	"via" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parent_listing_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"holder_id" uuid NOT NULL,
	"listing_id" uuid NOT NULL,
	"listing" text NOT NULL,
	"viewer_id" uuid,
	"viewer_school_id" uuid,
	"organization_name" text,
	"viewer_role" text,
	"viewer_first_name" text,
	"purpose" text NOT NULL,
	"ticket" text,
	"request_id" text,
	"via_api_token" boolean DEFAULT false NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "status" text DEFAULT 'aberto' NOT NULL;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "risks" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "delay_reason" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "anpd_communicated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "holders_communicated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "erased_access_log" ADD CONSTRAINT "erased_access_log_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erased_access_log" ADD CONSTRAINT "erased_access_log_viewer_school_id_schools_id_fk" FOREIGN KEY ("viewer_school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_revisions" ADD CONSTRAINT "incident_revisions_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_revisions" ADD CONSTRAINT "incident_revisions_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parent_listing_views" ADD CONSTRAINT "parent_listing_views_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parent_listing_views" ADD CONSTRAINT "parent_listing_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parent_listing_views" ADD CONSTRAINT "parent_listing_views_viewer_school_id_schools_id_fk" FOREIGN KEY ("viewer_school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "erased_access_log_erased_idx" ON "erased_access_log" USING btree ("erased_at");--> statement-breakpoint
CREATE INDEX "erased_access_log_viewed_idx" ON "erased_access_log" USING btree ("viewed_at");--> statement-breakpoint
CREATE INDEX "erased_access_log_hash_idx" ON "erased_access_log" USING btree ("account_hash");--> statement-breakpoint
CREATE INDEX "incident_revisions_incident_idx" ON "incident_revisions" USING btree ("incident_id","changed_at");--> statement-breakpoint
CREATE INDEX "parent_listing_views_holder_idx" ON "parent_listing_views" USING btree ("holder_id","viewed_at");--> statement-breakpoint
CREATE INDEX "parent_listing_views_viewed_idx" ON "parent_listing_views" USING btree ("viewed_at");--> statement-breakpoint
-- Incidents recorded before the edits: the one communication date was both the ANPD's and the holders'.
UPDATE "incidents" SET "anpd_communicated_at" = "communicated_at", "holders_communicated_at" = "communicated_at" WHERE "communicated_at" IS NOT NULL;--> statement-breakpoint
-- The new logs are append-only like those of 0014 (decision 190's trigger function): the listings'
-- log, what stays of an erased account's log, and the incidents' revisions.
CREATE TRIGGER "parent_listing_views_append_only" BEFORE UPDATE OR DELETE ON "parent_listing_views"
  FOR EACH ROW EXECUTE FUNCTION "elo_access_log_append_only"('viewer_school_id');--> statement-breakpoint
CREATE TRIGGER "parent_listing_views_no_truncate" BEFORE TRUNCATE ON "parent_listing_views"
  FOR EACH STATEMENT EXECUTE FUNCTION "elo_access_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "erased_access_log_append_only" BEFORE UPDATE OR DELETE ON "erased_access_log"
  FOR EACH ROW EXECUTE FUNCTION "elo_access_log_append_only"('viewer_school_id');--> statement-breakpoint
CREATE TRIGGER "erased_access_log_no_truncate" BEFORE TRUNCATE ON "erased_access_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "elo_access_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "incident_revisions_append_only" BEFORE UPDATE OR DELETE ON "incident_revisions"
  FOR EACH ROW EXECUTE FUNCTION "elo_access_log_append_only"();--> statement-breakpoint
CREATE TRIGGER "incident_revisions_no_truncate" BEFORE TRUNCATE ON "incident_revisions"
  FOR EACH STATEMENT EXECUTE FUNCTION "elo_access_log_append_only"();
