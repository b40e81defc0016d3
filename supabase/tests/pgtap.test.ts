/**
 * Runs every pgTAP file in supabase/tests (in name order, as `supabase test db` does) against
 * the project's migrations on PGlite and on PostgreSQL 15, and reports each failed assertion.
 * 000-setup-tests-hooks.sql installs pgTAP and the persona helpers and is committed; every
 * other file runs in its own transaction and rolls back.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { inject } from 'vitest';
import { pgtap } from '@electric-sql/pglite-pgtap';
import { openPglite } from '../local/src/db/pglite.ts';
import { openPostgres } from '../local/src/db/postgres.ts';
import { bootstrapPlatform } from '../local/src/bootstrap/index.ts';
import { migrate } from '../local/src/migrate.ts';
import { engines, freshPostgresDatabase, skipBecause } from '../local/test/harness/engines.ts';
import { preparedPglite } from '../local/test/harness/stack.ts';
import { assertReport, pgRunner, runFile, setupFile, testFiles, type RunScript } from './pgtap-runner.ts';

const totals: Record<string, { assertions: number; ms: number }> = {};
afterAll(() => {
  for (const [engine, t] of Object.entries(totals)) {
    console.log(`pgTAP on ${engine}: ${t.assertions} assertions in ${testFiles.length + 1} files, ${Math.round(t.ms)} ms`);
  }
});

for (const engine of engines()) {
  const suite = `pgTAP on ${engine.name}`;
  const skip =
    engine.name === 'postgres'
      ? engine.skip || (inject('pgtapOnPostgres') ? '' : 'pgTAP not installed for PostgreSQL 15 (apt-get install -y postgresql-15-pgtap)')
      : '';
  describe.skipIf(skip && skipBecause(suite, skip))(suite, () => {
    let run: RunScript;
    let rollback: () => Promise<void>;
    let close: () => Promise<void>;
    const total = { assertions: 0, ms: 0 };
    totals[engine.name] = total;

    beforeAll(async () => {
      const started = performance.now();
      if (engine.name === 'pglite') {
        const db = await openPglite({ loadDataDir: await preparedPglite('supabase', false), extensions: { pgtap } });
        run = async (sql) => (await db.pglite.exec(sql)).map((r) => r.rows as Record<string, unknown>[]);
        rollback = async () => {
          await db.pglite.exec('rollback').catch(() => {});
        };
        close = () => db.close();
      } else {
        const url = await freshPostgresDatabase('pgtap');
        const db = await openPostgres({ connectionString: url, max: 2 });
        await bootstrapPlatform(db);
        await migrate(db, 'supabase', { seed: false });
        await db.close();
        ({ run, rollback, close } = await pgRunner(url));
      }
      const setup = await runFile(run, setupFile, rollback);
      assertReport(setupFile, setup);
      total.assertions += setup.passed;
      total.ms += performance.now() - started;
    });
    afterAll(async () => {
      await close?.();
    });

    for (const file of testFiles) {
      it(file, async () => {
        const started = performance.now();
        const report = await runFile(run, file, rollback);
        total.ms += performance.now() - started;
        total.assertions += report.passed;
        assertReport(file, report);
      });
    }
  });
}
