/**
 * The project's migrations, seed and pgTAP suite on a database built the way the Supabase
 * platform builds one (platform-db.ts: supabase/postgres's image scripts, GoTrue's and Storage's
 * migrations, vendored under tests/fixtures/platform-db), in a throw-away PostgreSQL 15 cluster
 * of its own: the platform's scripts create cluster-wide roles, which the run's shared cluster
 * already has in the local stack's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPostgres } from '../local/src/db/postgres.ts';
import { migrate } from '../local/src/migrate.ts';
import { freshPostgresDatabase, skipBecause } from '../local/test/harness/engines.ts';
import { bootstrapPlatform } from '../local/src/bootstrap/index.ts';
import { findPostgresBin, hasPgtap } from '../local/test/harness/postgres-server.ts';
import { assertReport, pgRunner, runFile, setupFile, testFiles, type RunScript } from './pgtap-runner.ts';
import { catalogFacts, startPlatformDb, type PlatformDb } from './platform-db.ts';

const suite = 'pgTAP on the platform-shaped database';
const bin = findPostgresBin();
const skip = inject('postgresSkipReason') || (!bin ? 'PostgreSQL server not installed (apt-get install -y postgresql)' : '');
const noPgtap = !skip && bin && !hasPgtap(bin) ? 'pgTAP not installed for PostgreSQL 15 (apt-get install -y postgresql-15-pgtap)' : '';

describe.skipIf((skip || noPgtap) && skipBecause(suite, skip || noPgtap))(suite, () => {
  let platform: PlatformDb;
  let run: RunScript;
  let rollback: () => Promise<void>;
  let close: (() => Promise<void>) | undefined;
  let assertions = 0;
  const started = performance.now();

  beforeAll(async () => {
    platform = await startPlatformDb(bin!);
    const t = performance.now();
    const db = await openPostgres({ connectionString: platform.url, max: 2 });
    try {
      // The pgTAP files expect a database without the seed (as in pgtap.test.ts); the seed is
      // applied after them.
      await migrate(db, 'supabase', { seed: false });
    } finally {
      await db.close();
    }
    platform.timings['project migrations'] = Math.round(performance.now() - t);
    ({ run, rollback, close } = await pgRunner(platform.url));
    const setup = await runFile(run, setupFile, rollback);
    assertReport(setupFile, setup);
    assertions += setup.passed;
  });

  afterAll(async () => {
    await close?.();
    platform?.stop();
    console.log(
      `${suite}: ${assertions} assertions in ${testFiles.length + 1} files, ${Math.round(performance.now() - started)} ms (build: ${JSON.stringify(platform?.timings)})`,
    );
  });

  for (const file of testFiles) {
    it(file, async () => {
      const report = await runFile(run, file, rollback);
      assertions += report.passed;
      assertReport(file, report);
    });
  }

  // Last: the seed, as `supabase db reset` or `db push --include-seed` applies it after the migrations.
  it('seed.sql and seeds/*.sql', async () => {
    await close?.();
    close = undefined;
    const db = await openPostgres({ connectionString: platform.url, max: 2 });
    try {
      const result = await migrate(db, 'supabase', { seed: true });
      expect(result.seeded).toBe(true);
    } finally {
      await db.close();
    }
  });
});

/**
 * Differences between the platform-shaped database and the local stack's bootstrap (both before
 * the project's migrations) that are known, each with why it stays (also in ADR 0021 and the
 * README's table "The database the stack bootstraps"). A difference not matched here fails the test:
 * fix the bootstrap, or add it here with its reason.
 */
export const KNOWN_DIFFERENCES: { match: RegExp; why: string }[] = [
  {
    match:
      /^(platform|local) [a-z ]+ \| (cron|net|vault)([. ]|$)|^platform (extension \| (pg_cron|pg_net|supabase_vault) |default privilege \| supabase_admin in cron )/,
    why: 'pg_cron, pg_net and Vault: stubs in the platform-shaped database, cron-net.sql stand-ins in the local stack; both ours, compared by what the pgTAP suite uses',
  },
  {
    match: /^platform (extension \| (pgjwt|pgsodium|pg_stat_statements) |member \| (postgres|service_role) in pgsodium_)/,
    why: 'pgjwt, pgsodium and pg_stat_statements: created by the image, used by neither the project nor the stack',
  },
  {
    match: /^platform [a-z ]+ \| storage\.(buckets_analytics|buckets_vectors|iceberg_|migrations|s3_multipart|vector_indexes|prefixes)/,
    why: "Storage's S3 multipart uploads, analytics (Iceberg) and vector buckets and its migrations table: features the local storage does not serve",
  },
  {
    match: /^platform column \| storage\.(buckets\.(type|versioning_status)|objects\.(archived_at|is_delete_marker|is_versioned)) /,
    why: 'bucket types and object versioning (Storage 2026): not served locally',
  },
  {
    match: /^platform (function|function privilege) \| storage\./,
    why: "Storage's SQL functions (search, search_v2, list_objects_with_delimiter, get_size_by_bucket, ...): called by the Storage server only; the local storage lists in its own SQL",
  },
  {
    match: /^platform trigger \| storage\.(objects update_objects_updated_at|buckets enforce_bucket_name_length_trigger) /,
    why: 'updated_at and the 100-character bucket name are kept by the local storage service itself',
  },
  {
    match: /^platform [a-z ]+ \| auth\.(custom_oauth|flow_state|oauth_|saml_|sso_|webauthn_)/,
    why: "GoTrue's PKCE, SSO/SAML, OAuth server and WebAuthn tables: features the local auth refuses by name",
  },
  {
    match: /^platform column \| auth\.sessions\.(oauth_client_id|refresh_token_counter|refresh_token_hmac_key|scopes) /,
    why: 'OAuth-server sessions and refresh-token HMACs (GoTrue 2026): not used locally',
  },
  {
    match: /^local column \| auth\.mfa_factors\.last_totp_step /,
    why: 'the local stack refuses a TOTP code used twice (ADR 0001); GoTrue keeps no column for it',
  },
  {
    match:
      /^local ([a-z ]+ \| realtime\.(messages|topic)|member \| postgres in supabase_realtime_admin |role \| supabase_realtime_admin )|^(platform|local) schema privilege \| realtime (anon|authenticated|service_role) /,
    why: "realtime.messages, realtime.topic(), supabase_realtime_admin and the API roles' usage of schema realtime come from Realtime's own migrations (supabase/realtime), which are not vendored",
  },
  {
    match: /^platform role setting \| authenticator session_preload_libraries \| safeupdate$/,
    why: 'pg-safeupdate is not packaged by Debian nor PGlite: the local REST refuses an unfiltered PATCH or DELETE itself, tests/db/safe-update.test.ts keeps the schema SQL qualified (ADR 0021)',
  },
  {
    match:
      /^platform role setting \| (postgres|supabase_admin|supabase_auth_admin|supabase_storage_admin) (search_path|idle_in_transaction_session_timeout) /,
    why: 'the platform sets search_path per role (for postgres "\\$user", public, extensions, as psql passes the init script), the local stack on the database ("$user", public, extensions) and its services per connection',
  },
  {
    match: /^(platform|local) schema owner \| (auth|storage|extensions) /,
    why: 'auth and storage belong to supabase_admin on the platform (the service roles get all privileges), to the service roles locally; extensions to postgres there, to supabase_admin here; the API roles and postgres have the same privileges either way',
  },
  {
    match: /^platform default privilege \| supabase_admin in (extensions|realtime|graphql_public) /,
    why: 'grants on objects supabase_admin creates later in those schemas (extensions it installs, pg_graphql): the local stack installs none after the bootstrap',
  },
];

describe.skipIf(skip && skipBecause('the platform-shaped database against the local bootstrap', skip))(
  'the platform-shaped database against the local bootstrap',
  () => {
    it('differs only where a known difference says why', async () => {
      const platform = await startPlatformDb(bin!);
      let platformFacts: string[];
      try {
        platformFacts = await catalogFacts(platform.url);
      } finally {
        platform.stop();
      }
      const url = await freshPostgresDatabase('bootstrap');
      const db = await openPostgres({ connectionString: url, max: 2 });
      try {
        await bootstrapPlatform(db);
      } finally {
        await db.close();
      }
      const localFacts = await catalogFacts(url);
      const inLocal = new Set(localFacts);
      const inPlatform = new Set(platformFacts);
      const differences = [
        ...platformFacts.filter((f) => !inLocal.has(f)).map((f) => `platform ${f}`),
        ...localFacts.filter((f) => !inPlatform.has(f)).map((f) => `local ${f}`),
      ];
      const unknown = differences.filter((d) => !KNOWN_DIFFERENCES.some((k) => k.match.test(d)));
      expect(
        unknown,
        `differences no entry of KNOWN_DIFFERENCES explains ("platform" = only there, "local" = only in the bootstrap):\n${unknown.join('\n')}`,
      ).toEqual([]);
      const unused = KNOWN_DIFFERENCES.filter((k) => !differences.some((d) => k.match.test(d)));
      expect(
        unused.map((k) => k.why),
        'known differences that no longer occur (remove them)',
      ).toEqual([]);
    });
  },
);
