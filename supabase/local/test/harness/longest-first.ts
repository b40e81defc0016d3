import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take longest, longest first (a run on this project's 2-core machine under
 * load, 2026-12-07: start 151 s, perf-equivalence 102 s, fuzz 94 s, crash 85 s, functions-typecheck
 * 76 s, …). Vitest's own order on a clean clone (no timing cache) is by project name and then file
 * size: the app's unit tests first, the stack's last, so start.test.ts and functions-typecheck began
 * after 17 of the run's 20 minutes and ran alone at its end while the other worker had nothing left.
 * Started first, they overlap with the many short files (ADR 0006, "The longest test files first").
 */
export const LONGEST = [
  'supabase/local/test/start.test.ts',
  'tests/db/perf-equivalence.test.ts',
  'supabase/tests/platform-db.test.ts',
  'tests/resilience/fuzz.test.ts',
  'tests/resilience/crash.test.ts',
  'supabase/local/test/functions-typecheck.test.ts',
  'supabase/local/test/payments-functions.test.ts',
  'supabase/tests/pgtap.test.ts',
  'supabase/local/test/auth.test.ts',
  'supabase/local/test/datadir.test.ts',
  'supabase/local/test/auth-mfa.test.ts',
  'tests/security/attacks.test.ts',
  'supabase/local/test/bootstrap-migrations.test.ts',
];

const root = resolve(import.meta.dirname, '../../../..');

/** Vitest's order (failed first, then by the timing cache or size), with the files of LONGEST moved to the front in its order. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const missing = LONGEST.filter((f) => !existsSync(resolve(root, f)));
    if (missing.length)
      throw new Error(`LONGEST in ${relative(root, import.meta.filename)} names files that do not exist: ${missing.join(', ')}`);
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONGEST.indexOf(relative(root, spec.moduleId));
      return i === -1 ? LONGEST.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
