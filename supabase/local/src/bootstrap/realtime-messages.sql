-- Private Realtime channels: realtime.messages and realtime.topic(), as Supabase Realtime's
-- own migrations create them, so a project's policies on realtime.messages apply locally
-- ("Realtime Authorization", supabase.com/docs/guides/realtime/authorization). Idempotent:
-- run on a new database and on one bootstrapped by an older stack version.
-- Deviation: hosted Supabase partitions the table by inserted_at (one partition a day); here it
-- is one plain table, which policies and triggers cannot tell apart.
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
alter table realtime.messages owner to supabase_realtime_admin;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
grant all on realtime.messages to postgres;

create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;
alter function realtime.topic() owner to supabase_realtime_admin;
grant execute on function realtime.topic() to postgres, anon, authenticated, service_role;
