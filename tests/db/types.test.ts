/**
 * The checked-in client types (src/lib/database.types.ts) must match the schema the
 * migrations build: this fails when someone changes a migration without `npm run db:types`.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { generateFromMigrations, TYPES_PATH } from '../../scripts/db-types.ts';
import { preparedPglite } from '../../supabase/local/test/harness/stack.ts';

describe('generated database types', () => {
  it('src/lib/database.types.ts is up to date with supabase/migrations (else run `npm run db:types`)', async () => {
    const expected = await generateFromMigrations(await preparedPglite('supabase', false));
    const current = readFileSync(TYPES_PATH, 'utf8');
    expect(current, 'src/lib/database.types.ts is stale: run `npm run db:types` and commit it').toBe(expected);
  }, 240_000);

  it('has the shape of `supabase gen types typescript`', () => {
    const text = readFileSync(TYPES_PATH, 'utf8');
    for (const fragment of [
      'export type Database = {',
      'orders: {\n        Row: {',
      'Insert: {',
      'Update: {',
      'Relationships: [',
      'create_booking: {\n        Args: {',
      'Enums: {',
      'order_status: "unverified" | "confirmed" | "checked_in" | "completed" | "cancelled" | "expired"',
    ]) {
      expect(text).toContain(fragment);
    }
  });
});
