-- Privilege hygiene over every table above.

-- TRUNCATE ignores RLS, so the API roles lose it on every table of the schema (PostgREST
-- never truncates; this is defence in depth).
revoke truncate on all tables in schema public from anon, authenticated;
