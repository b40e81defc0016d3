import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../src/stack.ts';
import { DataDirLockedError } from '../src/db/lock.ts';
import { DataDirError } from '../src/db/pglite.ts';
import { fixtureProject } from './harness/stack.ts';
import { spawnCliStack, type ChildStack } from './harness/child.ts';

const dirs: string[] = [];
const children: ChildStack[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hafen-datadir-'));
  dirs.push(d);
  return d;
};
const project = () =>
  fixtureProject(join(temp(), 'supabase'), {
    migrations: { '20260101000000_log.sql': 'create table public.log (id int primary key, note text);' },
    seed: `insert into public.log values (1, 'seeded');`,
  });
const ports = { port: 0, mailPort: 0, smtpPort: 0 };

afterEach(async () => {
  for (const c of children.splice(0)) {
    c.process.kill('SIGKILL');
    await c.exited;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// Each test starts real stack processes (a cold PGlite initdb each): allow for a loaded machine.
describe('the PGlite data directory', { timeout: 240_000 }, () => {
  it('takes over the lock of a killed stack and keeps its committed data', async () => {
    const workdir = project();
    const dataDir = temp();
    const child = await spawnCliStack(workdir, dataDir);
    children.push(child);
    const health = await fetch(`${child.match[1]}/health`);
    expect(health.status).toBe(200);
    child.process.kill('SIGKILL');
    await child.exited;
    expect(existsSync(join(dataDir, 'stack.lock'))).toBe(true);

    const stack = await startStack({ workdir, dataDir, ...ports });
    try {
      expect(stack.recoveredLockFrom).toBe(child.process.pid);
      const { rows } = await stack.db.query<{ note: string }>('select note from public.log');
      expect(rows).toEqual([{ note: 'seeded' }]);
    } finally {
      await stack.close();
    }
    expect(existsSync(join(dataDir, 'stack.lock'))).toBe(false);
  });

  it('refuses a data directory that a running stack holds, naming its pid', async () => {
    const workdir = project();
    const dataDir = temp();
    const child = await spawnCliStack(workdir, dataDir);
    children.push(child);
    const error = await startStack({ workdir, dataDir, ...ports }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`pid ${child.process.pid}`);
    // The running stack is untouched.
    expect((await fetch(`${child.match[1]}/health`)).status).toBe(200);
  });

  it('shuts down cleanly on Ctrl-C (SIGINT) and keeps what was committed', async () => {
    const workdir = project();
    const dataDir = temp();
    const child = await spawnCliStack(workdir, dataDir);
    children.push(child);
    child.process.kill('SIGINT');
    expect(await child.exited).toBe(0);
    expect(existsSync(join(dataDir, 'stack.lock'))).toBe(false);
    const stack = await startStack({ workdir, dataDir, ...ports });
    try {
      expect(stack.recoveredLockFrom).toBeUndefined();
      expect(stack.migrations).toEqual({ applied: [], seeded: false, seedChanged: false });
      expect((await stack.db.query('select * from public.log')).rows).toHaveLength(1);
    } finally {
      await stack.close();
    }
  });

  it('explains a directory that holds no database', async () => {
    const dataDir = temp();
    mkdirSync(join(dataDir, 'pglite'), { recursive: true });
    writeFileSync(join(dataDir, 'pglite', 'notes.txt'), 'not a database');
    const error = await startStack({ workdir: project(), dataDir, ...ports }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirError);
    expect((error as Error).message).toMatch(/holds no Postgres data.*npm run db:reset/s);
    expect(existsSync(join(dataDir, 'stack.lock'))).toBe(false);
  });

  it('explains a corrupt database instead of crashing', async () => {
    const workdir = project();
    const dataDir = temp();
    const stack = await startStack({ workdir, dataDir, ...ports });
    await stack.close();
    writeFileSync(join(dataDir, 'pglite', 'global', 'pg_control'), Buffer.alloc(8192, 7));
    const error = await startStack({ workdir, dataDir, ...ports }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirError);
    expect((error as Error).message).toMatch(/could not be opened.*may be corrupt.*npm run db:reset/s);
  });
});
