CREATE TABLE "marketplace_offers" (
	"school_id" uuid NOT NULL,
	"discount_id" uuid NOT NULL,
	"place_key" text NOT NULL,
	"gold" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"niche_id" integer,
	CONSTRAINT "marketplace_offers_school_id_discount_id_place_key_pk" PRIMARY KEY("school_id","discount_id","place_key")
);
--> statement-breakpoint
DROP INDEX "discounts_available_idx";--> statement-breakpoint
DROP INDEX "discounts_open_platform_idx";--> statement-breakpoint
DROP INDEX "discounts_local_active_idx";--> statement-breakpoint
CREATE INDEX "marketplace_offers_page_idx" ON "marketplace_offers" USING btree ("place_key","gold" DESC NULLS FIRST,"created_at" DESC NULLS FIRST,"discount_id","school_id","niche_id");