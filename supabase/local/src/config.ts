import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { trustedProxyList } from './http.ts';

/**
 * The parts of the Supabase CLI's config.toml that the local stack honours, with the CLI's
 * defaults. Unknown keys are kept in `raw` so later services can read their own sections.
 */
export interface StackConfig {
  projectId: string;
  api: {
    port: number;
    maxRows: number;
    schemas: string[];
    extraSearchPath: string[];
    /**
     * The local stack's own key `[api] trusted_proxies` (not the CLI's): addresses or CIDR
     * blocks of proxies in front of the stack whose X-Forwarded-For is believed. Default none:
     * the client address is the socket's peer, whatever headers the client sends.
     */
    trustedProxies: string[];
  };
  auth: {
    siteUrl: string;
    additionalRedirectUrls: string[];
    jwtExpiry: number;
    enableSignup: boolean;
    enableAnonymousSignIns: boolean;
    enableRefreshTokenRotation: boolean;
    refreshTokenReuseInterval: number;
    minimumPasswordLength: number;
    passwordRequirements: string;
    email: {
      enableSignup: boolean;
      enableConfirmations: boolean;
      doubleConfirmChanges: boolean;
      securePasswordChange: boolean;
      otpLength: number;
      otpExpiry: number;
      maxFrequency: string;
      templates: Record<string, { subject?: string; contentPath?: string }>;
    };
    rateLimit: Record<string, number>;
    /** `[auth.mfa]`: GoTrue's MFA settings (TOTP on, phone and WebAuthn off, as GoTrue's defaults). */
    mfa: { maxEnrolledFactors: number; totp: { enrollEnabled: boolean; verifyEnabled: boolean } };
    hooks: Record<string, { enabled: boolean; uri: string }>;
  };
  /**
   * `[db.vault]`: secrets the CLI stores in Vault at every start (name = value; a value may be
   * `env(NAME)`, resolved then, see `resolveEnv`). The project keeps the URLs the database
   * calls and links to there, so they follow the ports this stack actually uses.
   */
  db: { vault: Record<string, string> };
  inbucket: { enabled: boolean; port: number; smtpPort: number; adminEmail: string; senderName: string };
  storage: { enabled: boolean; fileSizeLimit: string; buckets: Record<string, Record<string, unknown>> };
  functions: Record<string, Record<string, unknown>>;
  raw: Record<string, unknown>;
}

type Table = Record<string, unknown>;

const table = (value: unknown): Table => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : {});
const num = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const str = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
const strings = (value: unknown, fallback: string[]) => (Array.isArray(value) ? value.map(String) : fallback);

export class ConfigError extends Error {}

/**
 * A config value as the CLI reads it: `env(NAME)` is replaced by the variable's value. `env`
 * is looked up first in `own` (what this stack knows of itself: SUPABASE_URL, SITE_URL, …),
 * then in the process environment; an unset variable is an error, never an empty string.
 */
export function resolveEnv(value: string, own: Record<string, string>, where: string): string {
  const m = /^env\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(value.trim());
  if (!m) return value;
  const resolved = own[m[1]] ?? process.env[m[1]];
  if (resolved === undefined || resolved === '') throw new ConfigError(`config.toml ${where}: ${value} is not set`);
  return resolved;
}

/**
 * The `[auth]` settings of the CLI's config.toml that turn on what the local stack's auth does
 * not do, as `[section] key` for each one the config turns on. Honoured are the keys read into
 * `StackConfig.auth` above (TOTP MFA, e-mail, rate limits, templates, the custom access token
 * hook as a Postgres function); everything here would start without a word under the stack and
 * then answer as if off, so the stack refuses to start instead (`loadConfig`).
 */
export function unhonouredAuthSettings(raw: Table): string[] {
  const auth = table(raw.auth);
  const out: string[] = [];
  const on = (value: unknown) => value === true;
  const set = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' && value.trim() !== '0' : value !== undefined);
  if (auth.enabled === false) out.push('[auth] enabled = false (the local stack always serves auth)');
  if (on(auth.enable_manual_linking)) out.push('[auth] enable_manual_linking (identity linking)');
  if (set(auth.signing_keys_path)) out.push('[auth] signing_keys_path (asymmetric JWT signing keys)');
  for (const factor of ['phone', 'web_authn']) {
    const mfa = table(table(auth.mfa)[factor]);
    for (const key of ['enroll_enabled', 'verify_enabled']) if (on(mfa[key])) out.push(`[auth.mfa.${factor}] ${key}`);
  }
  if (on(table(auth.oauth_server).enabled)) out.push('[auth.oauth_server] enabled (the OAuth 2.1 server)');
  if (on(table(auth.captcha).enabled)) out.push('[auth.captcha] enabled');
  const smtp = auth.email && table(auth.email).smtp;
  if (smtp !== undefined && table(smtp).enabled !== false) out.push('[auth.email.smtp] (mail goes to the mail catcher)');
  for (const [name, value] of Object.entries(table(table(auth.email).notification))) {
    if (on(table(value).enabled)) out.push(`[auth.email.notification.${name}] enabled`);
  }
  const sms = table(auth.sms);
  if (on(sms.enable_signup)) out.push('[auth.sms] enable_signup (phone sign-ups)');
  for (const [name, value] of Object.entries(sms)) if (on(table(value).enabled)) out.push(`[auth.sms.${name}] enabled`);
  const sessions = table(auth.sessions);
  for (const key of ['timebox', 'inactivity_timeout']) if (set(sessions[key])) out.push(`[auth.sessions] ${key}`);
  for (const [name, value] of Object.entries(table(auth.hook))) {
    if (name !== 'custom_access_token' && on(table(value).enabled)) out.push(`[auth.hook.${name}] enabled`);
  }
  for (const group of ['external', 'web3', 'third_party']) {
    for (const [name, value] of Object.entries(table(auth[group])))
      if (on(table(value).enabled)) out.push(`[auth.${group}.${name}] enabled`);
  }
  return out;
}

/** Reads `<workdir>/config.toml`; a missing file gives the CLI's defaults. */
export function loadConfig(workdir: string): StackConfig {
  const file = join(workdir, 'config.toml');
  let raw: Table = {};
  if (existsSync(file)) {
    try {
      raw = parse(readFileSync(file, 'utf8')) as Table;
    } catch (error) {
      throw new ConfigError(`${file}: ${(error as Error).message}`);
    }
  }
  const unhonoured = unhonouredAuthSettings(raw);
  if (unhonoured.length) {
    throw new ConfigError(
      `${file}: the local stack does not provide what these settings turn on; turn them off to start it: ${unhonoured.join('; ')}`,
    );
  }
  const api = table(raw.api);
  const auth = table(raw.auth);
  const email = table(auth.email);
  const inbucket = table(raw.inbucket);
  const vault: Record<string, string> = {};
  for (const [name, value] of Object.entries(table(table(raw.db).vault))) {
    if (typeof value !== 'string') throw new ConfigError(`${file}: [db.vault] ${name} must be a string`);
    vault[name] = value;
  }
  const storage = table(raw.storage);
  const templates: StackConfig['auth']['email']['templates'] = {};
  for (const [name, value] of Object.entries(table(email.template))) {
    const t = table(value);
    templates[name] = {
      subject: typeof t.subject === 'string' ? t.subject : undefined,
      contentPath: typeof t.content_path === 'string' ? t.content_path : undefined,
    };
  }
  const hooks: StackConfig['auth']['hooks'] = {};
  for (const [name, value] of Object.entries(table(auth.hook))) {
    const h = table(value);
    hooks[name] = { enabled: bool(h.enabled, false), uri: str(h.uri, '') };
  }
  const rateLimit: Record<string, number> = {
    email_sent: 2,
    sms_sent: 30,
    anonymous_users: 30,
    token_refresh: 150,
    sign_in_sign_ups: 30,
    token_verifications: 30,
    // GoTrue's FactorChallenge/FactorVerify limiters: 15 a minute per address (auth/core.ts).
    mfa_challenge_and_verify: 15,
  };
  for (const [name, value] of Object.entries(table(auth.rate_limit))) {
    if (typeof value === 'number') rateLimit[name] = value;
  }
  const trustedProxies = strings(api.trusted_proxies, []);
  try {
    trustedProxyList(trustedProxies);
  } catch (error) {
    throw new ConfigError(`${file}: [api] ${(error as Error).message}`);
  }
  return {
    projectId: str(raw.project_id, 'local'),
    api: {
      port: num(api.port, 54321),
      maxRows: num(api.max_rows, 1000),
      schemas: strings(api.schemas, ['public', 'graphql_public']),
      extraSearchPath: strings(api.extra_search_path, ['public', 'extensions']),
      trustedProxies,
    },
    auth: {
      siteUrl: str(auth.site_url, 'http://127.0.0.1:3000'),
      additionalRedirectUrls: strings(auth.additional_redirect_urls, []),
      jwtExpiry: num(auth.jwt_expiry, 3600),
      enableSignup: bool(auth.enable_signup, true),
      enableAnonymousSignIns: bool(auth.enable_anonymous_sign_ins, false),
      enableRefreshTokenRotation: bool(auth.enable_refresh_token_rotation, true),
      refreshTokenReuseInterval: num(auth.refresh_token_reuse_interval, 10),
      minimumPasswordLength: num(auth.minimum_password_length, 6),
      passwordRequirements: str(auth.password_requirements, ''),
      email: {
        enableSignup: bool(email.enable_signup, true),
        enableConfirmations: bool(email.enable_confirmations, false),
        doubleConfirmChanges: bool(email.double_confirm_changes, true),
        securePasswordChange: bool(email.secure_password_change, false),
        otpLength: num(email.otp_length, 6),
        otpExpiry: num(email.otp_expiry, 3600),
        maxFrequency: str(email.max_frequency, '1s'),
        templates,
      },
      rateLimit,
      mfa: {
        maxEnrolledFactors: num(table(auth.mfa).max_enrolled_factors, 10),
        totp: {
          enrollEnabled: bool(table(table(auth.mfa).totp).enroll_enabled, true),
          verifyEnabled: bool(table(table(auth.mfa).totp).verify_enabled, true),
        },
      },
      hooks,
    },
    db: { vault },
    inbucket: {
      enabled: bool(inbucket.enabled, true),
      port: num(inbucket.port, 54324),
      smtpPort: num(inbucket.smtp_port, 54325),
      adminEmail: str(inbucket.admin_email, 'admin@email.com'),
      senderName: str(inbucket.sender_name, 'Admin'),
    },
    storage: {
      enabled: bool(storage.enabled, true),
      fileSizeLimit: str(storage.file_size_limit, '50MiB'),
      buckets: Object.fromEntries(Object.entries(table(storage.buckets)).map(([name, value]) => [name, table(value)])),
    },
    functions: Object.fromEntries(Object.entries(table(raw.functions)).map(([name, value]) => [name, table(value)])),
    raw,
  };
}
