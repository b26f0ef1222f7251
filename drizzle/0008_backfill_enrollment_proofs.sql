-- Custom migration (issue 21): proofs sent before verification existed enter the schools' queues
-- as 'enviado', dated when their row was last saved, so no parent has to send them again.
INSERT INTO "enrollment_proofs" ("user_id", "enrollment_id", "school_id", "file_key", "student_name", "submitted_at")
SELECT p."user_id", NULL, p."school_id", p."enrollment_proof_url", p."student_name", p."updated_at"
FROM "profiles" p
WHERE p."profile_type" = 'parent' AND p."enrollment_proof_url" IS NOT NULL AND p."school_id" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "enrollment_proofs" ("user_id", "enrollment_id", "school_id", "file_key", "student_name", "declared_class", "submitted_at")
SELECT e."user_id", e."id", e."school_id", e."proof_url", e."student_name", e."class_number", e."updated_at"
FROM "enrollments" e
WHERE e."proof_url" IS NOT NULL AND e."school_id" IS NOT NULL;
