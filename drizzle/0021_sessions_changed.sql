-- Each server process keeps the sessions it validated (decision 220). Every change that can make a
-- session read differently tells every process, at commit, the user's id on 'sessions_changed': a
-- session deleted or slid, the user's e-mail or its confirmation, the profile type, the roles, the user
-- deleted; a TRUNCATE of any of them sends '*' (everyone). PostgreSQL folds one transaction's identical
-- notifications into one.
CREATE FUNCTION sessions_changed_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb[] := array_remove(ARRAY[
    CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END,
    CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END], NULL);
  r jsonb;
BEGIN
  FOREACH r IN ARRAY changed LOOP
    PERFORM pg_notify('sessions_changed', coalesce(r->>'user_id', r->>'id'));
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION sessions_changed_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sessions_changed', '*');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed_sessions AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION sessions_changed_row();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_users AFTER UPDATE OF email, email_confirmed_at OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION sessions_changed_row();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_profiles AFTER INSERT OR UPDATE OF profile_type, user_id OR DELETE ON profiles FOR EACH ROW EXECUTE FUNCTION sessions_changed_row();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_user_roles AFTER INSERT OR UPDATE OR DELETE ON user_roles FOR EACH ROW EXECUTE FUNCTION sessions_changed_row();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_sessions_truncate AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed_all();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_users_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed_all();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_profiles_truncate AFTER TRUNCATE ON profiles FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed_all();
--> statement-breakpoint
CREATE TRIGGER sessions_changed_user_roles_truncate AFTER TRUNCATE ON user_roles FOR EACH STATEMENT EXECUTE FUNCTION sessions_changed_all();
