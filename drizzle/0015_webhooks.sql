CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"latency_ms" integer NOT NULL,
	"response" text DEFAULT '' NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT 'epoch'::timestamptz NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"first_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_reason" text,
	"failing_since" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"school_id" uuid NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" USING btree ("endpoint_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_endpoint_uq" ON "webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_school_idx" ON "webhook_endpoints" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "webhook_events_school_idx" ON "webhook_events" USING btree ("school_id","created_at");--> statement-breakpoint
-- Custom part (docs/decisions/201): webhook events are recorded by triggers, in the transaction of
-- the change, whichever statement makes it (the claim's single statement, the desk, the jobs, an
-- admin's psql). An event is only kept when the school has an active endpoint that wants its type;
-- each such endpoint gets one delivery row (unique per event and endpoint). Payloads carry the
-- fields of the desk's own views (vouchers, benefits, waitlist counts, verification queue).
CREATE FUNCTION webhook_iso(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
CREATE FUNCTION webhook_record(p_school uuid, p_type text, p_payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE ev uuid;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.school_id = p_school AND e.status = 'active' AND p_type = ANY(e.events)) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (school_id, type, payload) VALUES (p_school, p_type, p_payload) RETURNING id INTO ev;
  INSERT INTO webhook_deliveries (event_id, endpoint_id)
    SELECT ev, e.id FROM webhook_endpoints e WHERE e.school_id = p_school AND e.status = 'active' AND p_type = ANY(e.events);
END $$;
--> statement-breakpoint
CREATE FUNCTION webhook_voucher_payload(t discount_transactions) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.id, 'voucherCode', t.voucher_code, 'status', t.status,
    'claimedAt', webhook_iso(t.claimed_at), 'validUntil', t.valid_until::text,
    'redeemedAt', webhook_iso(t.redeemed_at), 'endedAt', webhook_iso(t.ended_at),
    'cancelReason', t.cancel_reason, 'cancelledByParent', coalesce(t.cancelled_by = t.user_id, false),
    'redeemedByName', (SELECT r.full_name FROM profiles r WHERE r.user_id = t.redeemed_by),
    'studentName', p.student_name, 'parentName', p.full_name,
    'className', d.class_name, 'discountPercentage', d.discount_percentage,
    'monthlyFee', d.monthly_fee, 'discountedFee', d.discounted_fee)
  FROM discounts d LEFT JOIN profiles p ON p.user_id = t.user_id
  WHERE d.id = t.discount_id
$$;
--> statement-breakpoint
CREATE FUNCTION webhook_voucher_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE kind text;
BEGIN
  IF TG_OP = 'INSERT' THEN kind := 'voucher.reserved';
  ELSIF OLD.status = NEW.status THEN RETURN NULL;
  ELSIF NEW.status = 'utilizado' THEN kind := 'voucher.used';
  ELSIF NEW.status = 'expirado' THEN kind := 'voucher.expired';
  ELSIF NEW.status = 'cancelado' AND NEW.cancel_reason = 'desistencia' THEN kind := 'voucher.given_up';
  ELSIF NEW.status = 'cancelado' THEN kind := 'voucher.cancelled';
  ELSE RETURN NULL;
  END IF;
  PERFORM webhook_record(NEW.school_id, kind, webhook_voucher_payload(NEW));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_voucher_event AFTER INSERT OR UPDATE OF status ON discount_transactions
  FOR EACH ROW EXECUTE FUNCTION webhook_voucher_event();
--> statement-breakpoint
CREATE FUNCTION webhook_benefit_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE reopened text := 'elo_webhooks.reopened_' || replace(NEW.id::text, '-', '_');
BEGIN
  -- A slot returned and handed to the waitlist in one transaction (0 → 1 → 0) never reopened the
  -- benefit: the first step notes it for this transaction only, and the second is then not an event.
  IF OLD.number_of_students = 0 AND NEW.number_of_students > 0 THEN
    PERFORM set_config(reopened, '1', true);
  ELSIF OLD.number_of_students > 0 AND NEW.number_of_students = 0 AND coalesce(current_setting(reopened, true), '') = '1' THEN
    PERFORM set_config(reopened, '', true);
  ELSIF OLD.number_of_students > 0 AND NEW.number_of_students = 0 THEN
    PERFORM webhook_record(NEW.school_id, 'benefit.sold_out', jsonb_build_object(
      'id', NEW.id, 'className', NEW.class_name, 'numberOfStudents', NEW.number_of_students, 'status', NEW.status,
      'monthlyFee', NEW.monthly_fee, 'discountPercentage', NEW.discount_percentage, 'discountedFee', NEW.discounted_fee,
      'discountValidity', NEW.discount_validity));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_benefit_event AFTER UPDATE OF number_of_students ON discounts
  FOR EACH ROW EXECUTE FUNCTION webhook_benefit_event();
--> statement-breakpoint
CREATE FUNCTION webhook_waitlist_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d record;
BEGIN
  IF NEW.status = 'offered' AND OLD.status IS DISTINCT FROM 'offered' THEN
    SELECT x.id, x.school_id, x.class_name, x.status INTO d FROM discounts x WHERE x.id = NEW.discount_id;
    PERFORM webhook_record(d.school_id, 'waitlist.offered', jsonb_build_object(
      'discountId', d.id, 'className', d.class_name, 'status', d.status,
      'waiting', (SELECT count(*) FROM waitlist_entries w WHERE w.discount_id = d.id AND w.status = 'waiting' AND w.user_id IS NOT NULL),
      'offered', (SELECT count(*) FROM waitlist_entries w WHERE w.discount_id = d.id AND w.status = 'offered' AND w.user_id IS NOT NULL)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_waitlist_event AFTER UPDATE OF status ON waitlist_entries
  FOR EACH ROW EXECUTE FUNCTION webhook_waitlist_event();
--> statement-breakpoint
CREATE FUNCTION webhook_proof_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.school_id IS NOT NULL AND NEW.status = 'enviado' THEN
    PERFORM webhook_record(NEW.school_id, 'enrollment.verification_requested', jsonb_build_object(
      'id', NEW.id, 'main', NEW.enrollment_id IS NULL, 'status', NEW.status,
      'parentName', (SELECT p.full_name FROM profiles p WHERE p.user_id = NEW.user_id),
      'studentName', NEW.student_name, 'declaredClass', NEW.declared_class, 'submittedAt', webhook_iso(NEW.submitted_at)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_proof_event AFTER INSERT ON enrollment_proofs
  FOR EACH ROW EXECUTE FUNCTION webhook_proof_event();
