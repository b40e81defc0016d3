-- GoTrue's MFA tables (its migrations 20221003041349 add_mfa_schema, 20221011041400
-- add_mfa_indexes, 20230523124323, 20230914180801, 20240729123726 add_mfa_phone_config,
-- 20240802193726 last_challenged_at, 20241009103726 add_web_authn, 20250925093508), folded into
-- their present shape. Idempotent: also run on databases bootstrapped before version 4 (and 6,
-- for last_totp_step).
set local role supabase_auth_admin;

do $$ begin
  create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type auth.factor_status as enum ('unverified', 'verified');
exception when duplicate_object then null;
end $$;

create table if not exists auth.mfa_factors (
  id uuid not null,
  user_id uuid not null,
  friendly_name text null,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text null,
  phone text unique default null,
  last_challenged_at timestamptz unique default null,
  web_authn_credential jsonb null,
  web_authn_aaguid uuid null,
  last_webauthn_challenge_data jsonb,
  constraint mfa_factors_pkey primary key (id),
  constraint mfa_factors_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade
);
-- Not in GoTrue: the last TOTP time step accepted for the factor (RFC 6238 section 5.2, a code is
-- accepted once; docs/adr/0001-staff-sign-in-second-factor.md). Added after the fact for
-- databases bootstrapped before platform version 6.
alter table auth.mfa_factors add column if not exists last_totp_step bigint null;
comment on table auth.mfa_factors is 'auth: stores metadata about factors';
comment on column auth.mfa_factors.last_webauthn_challenge_data is 'Stores the latest WebAuthn challenge data including attestation/assertion for customer verification';
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index if not exists unique_verified_phone_factor on auth.mfa_factors (user_id, phone);

create table if not exists auth.mfa_challenges (
  id uuid not null,
  factor_id uuid not null,
  created_at timestamptz not null,
  verified_at timestamptz null,
  ip_address inet not null,
  otp_code text null,
  web_authn_session_data jsonb null,
  constraint mfa_challenges_pkey primary key (id),
  constraint mfa_challenges_auth_factor_id_fkey foreign key (factor_id) references auth.mfa_factors (id) on delete cascade
);
comment on table auth.mfa_challenges is 'auth: stores metadata about challenge requests made';
create index if not exists mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table if not exists auth.mfa_amr_claims (
  session_id uuid not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method),
  constraint mfa_amr_claims_session_id_fkey foreign key (session_id) references auth.sessions (id) on delete cascade,
  constraint amr_id_pk primary key (id)
);
comment on table auth.mfa_amr_claims is 'auth: stores authenticator method reference claims for multi factor authentication';
create index if not exists user_id_created_at_idx on auth.sessions (user_id, created_at);

reset role;
grant all on auth.mfa_factors, auth.mfa_challenges, auth.mfa_amr_claims to postgres, dashboard_user;
