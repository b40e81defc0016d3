import { badRequest } from '../support.ts';
import type { RequestInfo } from '../model.ts';
import type { AuthCore } from '../core.ts';

/** POST /logout (GoTrue logout.go). */
export function createLogoutRoutes(core: AuthCore) {
  const { db, requireUser } = core;

  async function handleLogout(info: RequestInfo) {
    const scope = info.url.searchParams.get('scope') ?? '';
    if (!['', 'global', 'local', 'others'].includes(scope)) throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
    const { user, session } = await requireUser(info);
    await db(async (tx) => {
      if (session && scope === 'local') await tx.query(`delete from auth.sessions where id = $1`, [session.id]);
      else if (session && scope === 'others')
        await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [user.row.id, session.id]);
      else await tx.query(`delete from auth.sessions where user_id = $1`, [user.row.id]);
    });
    info.res.writeHead(204);
    info.res.end();
  }

  return { handleLogout };
}
