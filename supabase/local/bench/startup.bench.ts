import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startStack } from '../src/stack.ts';
import { summarise, type BenchRow } from './types.ts';

const root = resolve(import.meta.dirname, '../../..');

/** Cold start (initdb + bootstrap + migrations + seed), warm restart, and migrations + seed alone. */
export async function run(): Promise<BenchRow[]> {
  const cold: number[] = [];
  const warm: number[] = [];
  const migrateSeed: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'hafen-bench-start-'));
    try {
      const options = { workdir: join(root, 'supabase'), dataDir, port: 0, mailPort: 0, smtpPort: 0 };
      let t = performance.now();
      const first = await startStack(options);
      cold.push(performance.now() - t);
      await first.close();
      for (let j = 0; j < 2; j++) {
        t = performance.now();
        const again = await startStack(options);
        warm.push(performance.now() - t);
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Migrations + seed on an in-memory database whose platform is already bootstrapped.
    const { openPglite } = await import('../src/db/pglite.ts');
    const { bootstrapPlatform } = await import('../src/bootstrap/index.ts');
    const { migrate } = await import('../src/migrate.ts');
    const db = await openPglite();
    await bootstrapPlatform(db);
    const t = performance.now();
    await migrate(db, join(root, 'supabase'));
    migrateSeed.push(performance.now() - t);
    await db.close();
  }
  return [
    summarise('stack cold start (new data dir)', 'ms', cold, 'PGlite, project migrations + seed'),
    summarise('stack warm restart', 'ms', warm, 'PGlite, existing data dir'),
    summarise('migrations + seed', 'ms', migrateSeed, 'PGlite, after platform bootstrap'),
  ];
}
