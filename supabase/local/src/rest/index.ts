/**
 * The REST service: PostgREST's HTTP semantics at /rest/v1 over the stack's database.
 * Each request: verify the JWT (auth.ts), read what it asks for from its headers and query
 * string (request.ts, with the URL grammar in parse.ts and the body in payload.ts), plan the
 * node tree of what it selects and embeds (plan.ts), build one parameterised statement
 * (query.ts, writes in write.ts, functions in rpc.ts), run it in one transaction as the
 * caller's role (execute.ts), and answer with the bytes Postgres built (respond.ts).
 *
 * This file holds the schema caches (one per exposed schema, reloaded on 'schema-changed') and
 * the router: / (OpenAPI), /rpc/<function>, /<table>. As PostgREST's App.hs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Service, StackContext } from '../context.ts';
import { createAuthenticator } from './auth.ts';
import { apiError } from './errors.ts';
import { openApiOutcome } from './openapi.ts';
import { pathSegments, readRequest } from './request.ts';
import type { Outcome } from './respond.ts';
import { planRpc } from './rpc.ts';
import { loadSchema, type SchemaCache } from './schema.ts';
import { planTable } from './table.ts';

/**
 * One schema cache per exposed schema: config.toml [api] schemas, as PostgREST's db-schemas
 * (the first is the default; Accept-Profile/Content-Profile pick another). A configured schema
 * that does not exist in the database is not exposed (hosted Supabase creates graphql_public,
 * the stack does not).
 */
async function loadCaches(ctx: StackContext): Promise<Map<string, SchemaCache>> {
  const wanted = ctx.config.api.schemas.length ? ctx.config.api.schemas : ['public'];
  const { rows } = await ctx.db.query<{ nspname: string }>(`select nspname from pg_namespace where nspname = any($1::text[])`, [wanted]);
  const present = new Set(rows.map((r) => r.nspname));
  const caches = new Map<string, SchemaCache>();
  for (const schema of wanted) if (present.has(schema)) caches.set(schema, await loadSchema(ctx.db, schema));
  return caches;
}

export async function createRestService(ctx: StackContext): Promise<Service> {
  let caches = await loadCaches(ctx);
  let reloading: Promise<void> | undefined;
  const reload = () => {
    reloading = loadCaches(ctx)
      .then((c) => {
        caches = c;
      })
      .catch((e) => ctx.log.error(`rest: schema cache reload failed: ${(e as Error).message}`))
      .finally(() => {
        reloading = undefined;
      });
  };
  ctx.events.on('schema-changed', reload);
  const authenticate = createAuthenticator(ctx);

  async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    if (reloading) await reloading;
    const r = await readRequest(ctx, req, () => caches, authenticate);
    const segments = pathSegments(path);
    let outcome: () => Promise<Outcome>;
    if (segments.length === 0) outcome = async () => openApiOutcome(r.cache);
    else if (segments.length === 2 && segments[0] === 'rpc') outcome = await planRpc(r, segments[1]);
    else if (segments.length === 1) outcome = await planTable(r, segments[0]);
    else throw apiError(404, 'PGRST125', 'Invalid path specified in request URL');

    const result = await outcome();
    const headers = { ...result.headers };
    if (result.body !== undefined && r.method !== 'HEAD') headers['content-length'] = String(Buffer.byteLength(result.body));
    res.writeHead(result.status, headers);
    res.end(r.method === 'HEAD' ? undefined : result.body);
  }

  return {
    handle,
    async close() {
      ctx.events.off('schema-changed', reload);
      if (reloading) await reloading;
    },
  };
}
