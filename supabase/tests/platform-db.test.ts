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
import { skipBecause } from '../local/test/harness/engines.ts';
import { findPostgresBin, hasPgtap } from '../local/test/harness/postgres-server.ts';
import { assertReport, pgRunner, runFile, setupFile, testFiles, type RunScript } from './pgtap-runner.ts';
import { startPlatformDb, type PlatformDb } from './platform-db.ts';

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
