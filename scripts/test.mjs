#!/usr/bin/env node
/**
 * `npm test`: every suite of the project, in order, with each suite's time and one closing
 * line "tests: N passed, N failed". Suites that need a system package this machine lacks are
 * skipped LOUDLY with the install command; CI sets CI_REQUIRE_ALL=1, which turns such a skip
 * into a failure. The whole run has a time budget (30 minutes, TEST_BUDGET_MINUTES overrides),
 * the target of issue 46: the time is printed against it. A run over the budget plus 10 % (the
 * ceiling, TEST_CEILING_MINUTES overrides it) counts as one failed test, so the suite cannot creep
 * past the budget (issue 46, item 2; ADR 0006). Three clean-clone runs in a row, CI's included,
 * took 21.6 to 22.5 minutes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
mkdirSync(join(root, 'reports'), { recursive: true });
rmSync(join(root, 'reports/skipped.txt'), { force: true });

const runStarted = Date.now();
const budgetSetting = process.env.TEST_BUDGET_MINUTES;
const budgetMinutes = budgetSetting === undefined || budgetSetting === '' ? 30 : Number(budgetSetting);
if (!(budgetMinutes > 0)) {
  console.error(`TEST_BUDGET_MINUTES must be a number of minutes above 0, not "${budgetSetting}"`);
  process.exit(2);
}
const ceilingSetting = process.env.TEST_CEILING_MINUTES;
const ceilingMinutes = ceilingSetting === undefined || ceilingSetting === '' ? budgetMinutes * 1.1 : Number(ceilingSetting);
if (!(ceilingMinutes > 0)) {
  console.error(`TEST_CEILING_MINUTES must be a number of minutes above 0, not "${ceilingSetting}"`);
  process.exit(2);
}

const results = [];
let passed = 0;
let failed = 0;

/** Runs commands, at most `limit` at once; each one's output (stdout and stderr) is kept for the caller. */
function runConcurrently(commands, limit) {
  return new Promise((done) => {
    const out = new Array(commands.length);
    let next = 0;
    let running = 0;
    const start = () => {
      if (next === commands.length && running === 0) return done(out);
      while (running < limit && next < commands.length) {
        const i = next++;
        const [, command, args] = commands[i];
        const started = Date.now();
        const chunks = [];
        const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        running++;
        // 'close' ends it; a command that cannot start ('error', e.g. not installed) ends it too, once.
        const finish = (ok) => {
          if (out[i]) return;
          out[i] = { ok, seconds: (Date.now() - started) / 1000, output: Buffer.concat(chunks).toString() };
          running--;
          start();
        };
        child.on('close', (code) => finish(code === 0));
        child.on('error', (error) => {
          chunks.push(Buffer.from(`${error.message}\n`));
          finish(false);
        });
      }
    };
    start();
  });
}

function run(name, command, args, options = {}) {
  console.log(`\n━━━ ${name} ━━━`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...options.env } });
  const seconds = (Date.now() - started) / 1000;
  const ok = result.status === 0;
  results.push({ name, ok, seconds });
  return ok;
}

// 1. Static checks: each counts as one test. They are single-threaded, so two run at once (one
// per core of the 2-core machines the budget is measured on); each one's output is printed
// whole when it ends, in the list's order.
const staticChecks = [
  ['typecheck (app)', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
  ['lint', bin('eslint'), ['.', '--max-warnings', '0']],
  ['typecheck (local stack, scripts, benchmarks)', bin('tsc'), ['-p', 'supabase/local/tsconfig.json', '--noEmit']],
  ['typecheck (browser tests)', bin('tsc'), ['-p', 'tests/tsconfig.json', '--noEmit']],
  ['formatting (Prettier)', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['translations', process.execPath, ['scripts/check-i18n.mjs']],
  ['lockfile complete for npm ci', process.execPath, ['scripts/fix-lockfile.mjs', '--check']],
];
const staticResults = await runConcurrently(staticChecks, Number(process.env.TEST_STATIC_CONCURRENCY ?? 2));
for (const [i, [name]] of staticChecks.entries()) {
  const r = staticResults[i];
  console.log(`\n━━━ ${name} ━━━`);
  if (r.output) process.stdout.write(r.output);
  results.push({ name, ok: r.ok, seconds: r.seconds });
  if (r.ok) passed++;
  else failed++;
}

// 2. Vitest: the local stack, the database (pgTAP), unit and component tests.
const vitestReport = join(root, 'reports/vitest.json');
rmSync(vitestReport, { force: true });
run('vitest (stack, database, app)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numFailedTestSuites ?? 0);
  const perFile = report.testResults
    .map((f) => ({ file: f.name.replace(root + '/', ''), seconds: ((f.endTime - f.startTime) / 1000).toFixed(1), status: f.status }))
    .sort((a, b) => b.seconds - a.seconds);
  console.log('\nSlowest test files:');
  for (const f of perFile.slice(0, 12)) console.log(`  ${f.seconds.padStart(6)} s  ${f.status.padEnd(6)} ${f.file}`);
} else {
  failed++;
}

// 3. Browser tests (Playwright driving Debian's Chromium), once they exist.
const e2eDir = join(root, 'tests/e2e');
if (existsSync(e2eDir) && readdirSync(e2eDir).some((f) => f.endsWith('.spec.ts'))) {
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    const reason = `Chromium not found at ${chromium} (apt-get install -y chromium)`;
    if (process.env.CI_REQUIRE_ALL === '1') {
      console.error(`browser tests cannot run: ${reason}`);
      failed++;
    } else {
      console.warn(`\n!!! SKIPPED browser tests: ${reason}\n`);
      results.push({ name: 'browser tests', ok: true, seconds: 0, skipped: reason });
    }
  } else {
    const report = join(root, 'reports/playwright.json');
    const ok = run('browser tests (Playwright, Chromium)', bin('playwright'), ['test'], {
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    if (existsSync(report)) {
      const stats = JSON.parse(readFileSync(report, 'utf8')).stats;
      passed += stats.expected + stats.flaky;
      failed += stats.unexpected;
      if (!ok && stats.unexpected === 0) failed++;
    } else if (!ok) failed++;
  }
}

console.log('\n━━━ Summary ━━━');
for (const r of results)
  console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.seconds.toFixed(1).padStart(7)} s  ${r.name}${r.skipped ? ` (SKIPPED: ${r.skipped})` : ''}`);
const skippedFile = join(root, 'reports/skipped.txt');
if (existsSync(skippedFile)) {
  const lines = [...new Set(readFileSync(skippedFile, 'utf8').trim().split('\n'))];
  console.warn(`\n!!! ${lines.length} suite(s) were SKIPPED because this machine lacks a system package:`);
  for (const l of lines) console.warn(`!!!   ${l}`);
  console.warn('!!! Install them (see README, "Tests") to run everything; CI runs with CI_REQUIRE_ALL=1 and fails instead.');
}
// The time budget: over it is said loudly; over the ceiling (the budget plus 10 %, a loaded
// machine's spread) it is a failure of its own.
const minutes = (Date.now() - runStarted) / 60_000;
console.log(`\ntime: ${minutes.toFixed(1)} min of ${budgetMinutes} min budget (fails above the ${ceilingMinutes.toFixed(1)} min ceiling)`);
if (minutes > ceilingMinutes) {
  console.error(
    `FAIL time ceiling: the run took ${minutes.toFixed(1)} min, more than the ${ceilingMinutes.toFixed(1)} min ceiling (the ${budgetMinutes} min budget plus 10 %, issue 46); set TEST_CEILING_MINUTES to change it`,
  );
  failed++;
} else if (minutes > budgetMinutes) {
  console.warn(`!!! OVER BUDGET: the run took ${minutes.toFixed(1)} min, more than the ${budgetMinutes} min budget (issue 46)`);
}
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => !r.ok) ? 1 : 0);
