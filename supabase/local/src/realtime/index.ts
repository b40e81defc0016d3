import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Service, StackContext } from '../context.ts';
import { createAccess } from './access.ts';
import { createBroadcast } from './broadcast.ts';
import { createChanges } from './changes.ts';
import { createChannels } from './channels.ts';
import { createRealtimeCore, headerMap } from './core.ts';
import { createPresence } from './presence.ts';
import { checkToken } from './tokens.ts';

/**
 * /realtime/v1: Supabase Realtime's websocket (the Phoenix protocol of @supabase/realtime-js
 * 2.x) with postgres_changes, broadcast and presence on public and private channels (private
 * ones authorised by the RLS policies on realtime.messages, see authorization.ts).
 *
 * One module per part, as Realtime splits its channel from its extensions: core.ts (sockets,
 * channels by scope, sending frames), channels.ts (joins, leaves, token refresh and expiry),
 * changes.ts (postgres_changes: capture, RLS check, delivery, subscriptions), broadcast.ts
 * (socket and REST broadcast), presence.ts, access.ts (private channels' read and write).
 * The wire format is protocol.ts, the subscription filters filters.ts, the database side
 * sql.ts, token checks tokens.ts. This file opens the websocket and routes the REST endpoint.
 */
export async function createRealtimeService(ctx: StackContext): Promise<Service> {
  const core = createRealtimeCore(ctx);
  const changes = await createChanges(core);
  const access = createAccess(core);
  const presence = createPresence(core, access);
  const broadcast = createBroadcast(core, access);
  const { onConnection } = createChannels(core, access, changes, presence, broadcast);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 3 * 1024 * 1024 });

  return {
    handle: broadcast.handleRest,

    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const refuse = (status: number, body: unknown) => {
        const text = JSON.stringify(body);
        socket.end(
          `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : status === 404 ? 'Not Found' : 'Unauthorized'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
        );
      };
      if (url.pathname !== '/realtime/v1/websocket') return refuse(404, { message: 'Not found' });
      const vsnParam = url.searchParams.get('vsn') ?? '1.0.0';
      if (vsnParam !== '1.0.0' && vsnParam !== '2.0.0') return refuse(400, { error: `unsupported vsn ${vsnParam}` });
      const apikey = url.searchParams.get('apikey') ?? (req.headers.apikey as string | undefined) ?? '';
      void checkToken(apikey, core.secret).then((c) => {
        if (socket.destroyed) return;
        if (!c.ok) return refuse(401, { error: c.message });
        wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, vsnParam, apikey, headerMap(req)));
      });
    },

    async close() {
      changes.detach();
      for (const conn of core.conns) {
        for (const ch of conn.channels.values()) clearTimeout(ch.tokenTimer);
        conn.ws.terminate();
      }
      core.conns.clear();
      await new Promise<void>((r) => wss.close(() => r()));
      await changes.close();
    },
  };
}
