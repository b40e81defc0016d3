import type { Service, StackContext } from '../context.ts';
import { HttpError } from '../http.ts';

/** Placeholder until the realtime service lands: answers 501 so clients fail clearly. */
export function createRealtimeService(_ctx: StackContext): Service {
  return {
    async handle() {
      throw new HttpError(501, { message: 'The realtime service is not implemented in the local stack yet' });
    },
  };
}
