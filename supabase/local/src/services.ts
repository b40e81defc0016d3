import type { ServiceFactory } from './context.ts';
import { createAuthService } from './auth/index.ts';
import { createRestService } from './rest/index.ts';
import { createRealtimeService } from './realtime/index.ts';
import { createStorageService } from './storage/index.ts';
import { createFunctionsService } from './functions/index.ts';

/**
 * The Supabase APIs the gateway routes to, with the gateway's key policy for each (as in the
 * CLI's Kong configuration): which need an `apikey`, and which paths are open.
 */
export interface Route {
  prefix: string;
  factory: ServiceFactory;
  /** Does the gateway demand a valid apikey (header, or query for websockets)? */
  keyAuth: boolean;
  /** Paths under the prefix reachable without a key (e.g. GoTrue's e-mail link endpoints). */
  openPaths?: RegExp;
}

export const routes: Route[] = [
  { prefix: '/auth/v1', factory: createAuthService, keyAuth: true, openPaths: /^\/(verify|callback|authorize)(\/|$)/ },
  { prefix: '/rest/v1', factory: createRestService, keyAuth: true },
  { prefix: '/realtime/v1', factory: createRealtimeService, keyAuth: true },
  { prefix: '/storage/v1', factory: createStorageService, keyAuth: false },
  { prefix: '/functions/v1', factory: createFunctionsService, keyAuth: false },
];
