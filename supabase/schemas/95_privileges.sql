-- Privilege hygiene over every table above.

revoke truncate on all tables in schema public from anon, authenticated;
