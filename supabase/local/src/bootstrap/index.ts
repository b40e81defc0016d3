import { readFileSync } from 'node:fs';
import type { Database } from '../db/types.ts';

const sql = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

/** Bumped when platform.sql changes; a database bootstrapped by an older version is rebuilt. */
export const PLATFORM_VERSION = '7';

/** The search_path hosted Supabase gives every role. */
export const SEARCH_PATH = `"$user", public, extensions`;

export async function isBootstrapped(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(`select to_regclass('_supabase_local.meta') is not null as ok`);
  return rows[0].ok;
}

/**
 * Creates what the Supabase platform provides before user migrations. Idempotent: roles are
 * created when missing (they are cluster-wide on Postgres), the rest once per database.
 */
export async function bootstrapPlatform(db: Database): Promise<'created' | 'present'> {
  await db.exec(sql('roles.sql'));
  if (await isBootstrapped(db)) {
    // Versions 2 and 3 added the pg_cron/pg_net/vault stand-ins (cron-net.sql), version 4
    // GoTrue's MFA tables (mfa.sql), version 5 realtime.messages (realtime-messages.sql), version
    // 6 auth.mfa_factors.last_totp_step (mfa.sql), version 7 Storage's refusal of direct deletes
    // (storage-protect-delete.sql) and the platform's grants on auth and storage (platform-grants.sql), all idempotent: a database from an older version gets them in place.
    const { rows } = await db.query<{ value: string }>(`select value from _supabase_local.meta where key = 'platform_version'`);
    if (Number(rows[0]?.value ?? 0) < Number(PLATFORM_VERSION)) {
      await db.transaction(async (tx) => {
        await tx.exec(sql('cron-net.sql'));
        await tx.exec(sql('mfa.sql'));
        await tx.exec(sql('realtime-messages.sql'));
        await tx.exec(sql('storage-protect-delete.sql'));
        await tx.exec(sql('platform-grants.sql'));
        await tx.query(`update _supabase_local.meta set value = $1 where key = 'platform_version'`, [PLATFORM_VERSION]);
      });
    }
    return 'present';
  }
  await db.transaction(async (tx) => {
    await tx.exec(sql('platform.sql'));
    await tx.exec(sql('cron-net.sql'));
    await tx.exec(sql('mfa.sql'));
    await tx.exec(sql('realtime-messages.sql'));
    await tx.exec(sql('storage-protect-delete.sql'));
    await tx.exec(sql('platform-grants.sql'));
    await tx.query(`insert into _supabase_local.meta (key, value) values ('platform_version', $1)`, [PLATFORM_VERSION]);
  });
  return 'created';
}
