import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import bcrypt from 'bcryptjs';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/**
 * bcrypt (cost as GoTrue: 10) in a small pool of worker threads, falling back to bcryptjs on
 * the main thread if a worker cannot start. `close()` ends the workers with the stack.
 */
export function createBcryptPool(size = Math.max(1, Math.min(4, availableParallelism() - 1))) {
  const workers: Worker[] = [];
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let turn = 0;
  let broken = false;
  const start = () => {
    try {
      for (let i = 0; i < size; i++) {
        const worker = new Worker(new URL('./bcrypt-worker.mjs', import.meta.url));
        worker.unref();
        worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
          const p = pending.get(m.id);
          if (!p) return;
          pending.delete(m.id);
          if (m.error !== undefined) p.reject(new Error(m.error));
          else p.resolve(m.result);
        });
        worker.on('error', (error) => {
          broken = true;
          for (const p of pending.values()) p.reject(error);
          pending.clear();
        });
        workers.push(worker);
      }
    } catch {
      broken = true;
    }
  };
  const run = (message: Record<string, unknown>) => {
    if (!workers.length && !broken) start();
    if (broken || !workers.length) return undefined;
    const id = nextId++;
    const worker = workers[turn++ % workers.length];
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  return {
    async hash(password: string, cost: number): Promise<string> {
      const r = run({ op: 'hash', password, cost });
      return r ? ((await r) as string) : bcrypt.hash(password, cost);
    },
    async compare(password: string, hash: string): Promise<boolean> {
      const r = run({ op: 'compare', password, hash });
      return r ? ((await r) as boolean) : bcrypt.compare(password, hash);
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w.terminate()));
    },
  };
}
