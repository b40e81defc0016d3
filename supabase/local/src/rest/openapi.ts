/**
 * GET /rest/v1/: a small OpenAPI (Swagger 2.0) description of the exposed schema, its tables'
 * columns and its functions' paths. PostgREST serves a fuller one at its root (OpenAPI.hs).
 */
import type { SchemaCache } from './schema.ts';
import type { Outcome } from './respond.ts';

/** The root's answer. */
export function openApiOutcome(cache: SchemaCache): Outcome {
  return {
    status: 200,
    headers: { 'content-type': 'application/openapi+json; charset=utf-8' },
    body: JSON.stringify(openApi(cache)),
  };
}

function openApi(cache: SchemaCache) {
  const definitions: Record<string, unknown> = {};
  const paths: Record<string, unknown> = { '/': {} };
  for (const t of cache.tables.values()) {
    paths[`/${t.name}`] = {};
    definitions[t.name] = {
      type: 'object',
      required: t.columns.filter((c) => c.notNull && !c.hasDefault).map((c) => c.name),
      properties: Object.fromEntries(t.columns.map((c) => [c.name, { format: c.type }])),
    };
  }
  for (const name of cache.functions.keys()) paths[`/rpc/${name}`] = {};
  return { swagger: '2.0', info: { title: 'standard public schema', version: 'local' }, basePath: '/', paths, definitions };
}
