import type { Service, StackContext } from '../context.ts';
import { HttpError } from '../http.ts';

/** Placeholder until the rest service lands: answers 501 so clients fail clearly. */
export function createRestService(_ctx: StackContext): Service {
  return {
    async handle() {
      throw new HttpError(501, { message: 'The rest service is not implemented in the local stack yet' });
    },
  };
}
