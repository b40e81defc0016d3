import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One stack per data directory: PGlite is a single process's database and two writers would
 * corrupt it. A lock left by a killed process is taken over; one held by a running process is
 * refused with a message that says which.
 */
export function lockDataDir(dataDir: string): { release(): void; recoveredFrom?: number } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'stack.lock');
  let recoveredFrom: number | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        recoveredFrom,
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another local stack (pid ${pid}). ` +
            `Stop that one first (Ctrl-C in its terminal, or kill ${pid}), or give this one another data directory.`,
        );
      }
      // Left behind by a process that is gone: take it over.
      recoveredFrom = Number.isInteger(pid) ? pid : undefined;
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}.`);
}
