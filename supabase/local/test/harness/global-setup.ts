import type { TestProject } from 'vitest/node';
import { findPostgresBin, hasPgtap, startPostgresServer, type PostgresServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Port of the run's shared PostgreSQL 15 cluster, or 0 when none could be started. */
    postgresPort: number;
    postgresSkipReason: string;
    pgtapOnPostgres: boolean;
  }
}

let server: PostgresServer | undefined;

/** One real Postgres cluster per test run; each test file creates its own databases in it. */
export async function setup(project: TestProject) {
  const bin = findPostgresBin();
  let reason = '';
  if (!bin) reason = 'PostgreSQL server not installed (apt-get install -y postgresql)';
  else {
    try {
      server = await startPostgresServer(bin);
    } catch (error) {
      reason = `PostgreSQL could not be started: ${(error as Error).message}`;
    }
  }
  project.provide('postgresPort', server?.port ?? 0);
  project.provide('postgresSkipReason', reason);
  project.provide('pgtapOnPostgres', Boolean(bin && server && hasPgtap(bin)));
  return () => server?.stop();
}
