CREATE TYPE "public"."proof_refusal_reason" AS ENUM('ilegivel', 'outro_aluno', 'outra_escola', 'documento_vencido', 'outro');--> statement-breakpoint
CREATE TYPE "public"."proof_status" AS ENUM('enviado', 'verificado', 'recusado');--> statement-breakpoint
CREATE TABLE "email_confirmation_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollment_proof_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proof_id" uuid NOT NULL,
	"viewer_id" uuid,
	"viewer_school_id" uuid,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollment_proofs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"enrollment_id" uuid,
	"school_id" uuid NOT NULL,
	"file_key" text NOT NULL,
	"student_name" text,
	"declared_class" text,
	"status" "proof_status" DEFAULT 'enviado' NOT NULL,
	"refusal_reason" "proof_refusal_reason",
	"refusal_note" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_by_admin" boolean DEFAULT false NOT NULL,
	"verified_until" date,
	"renewal_requested_at" timestamp with time zone,
	"replaced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "discounts" ADD COLUMN "requires_verified_enrollment" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "email_confirmation_tokens" ADD CONSTRAINT "email_confirmation_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD CONSTRAINT "enrollment_proof_views_proof_id_enrollment_proofs_id_fk" FOREIGN KEY ("proof_id") REFERENCES "public"."enrollment_proofs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD CONSTRAINT "enrollment_proof_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proof_views" ADD CONSTRAINT "enrollment_proof_views_viewer_school_id_schools_id_fk" FOREIGN KEY ("viewer_school_id") REFERENCES "public"."schools"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proofs" ADD CONSTRAINT "enrollment_proofs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proofs" ADD CONSTRAINT "enrollment_proofs_enrollment_id_enrollments_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."enrollments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proofs" ADD CONSTRAINT "enrollment_proofs_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollment_proofs" ADD CONSTRAINT "enrollment_proofs_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_confirmation_tokens_user_idx" ON "email_confirmation_tokens" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "enrollment_proof_views_proof_idx" ON "enrollment_proof_views" USING btree ("proof_id","viewed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollment_proofs_live_main_uq" ON "enrollment_proofs" USING btree ("user_id") WHERE enrollment_id is null and replaced_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "enrollment_proofs_live_other_uq" ON "enrollment_proofs" USING btree ("enrollment_id") WHERE replaced_at is null;--> statement-breakpoint
CREATE INDEX "enrollment_proofs_school_idx" ON "enrollment_proofs" USING btree ("school_id","status","submitted_at");--> statement-breakpoint
CREATE INDEX "enrollment_proofs_verified_idx" ON "enrollment_proofs" USING btree ("user_id","school_id","verified_until") WHERE status = 'verificado';