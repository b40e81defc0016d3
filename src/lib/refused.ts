/**
 * A write the database refused, by the reason the feature's api derived from the answer
 * (e.g. 'duplicate_name'). A `useMutation` hook throws it, so `mutation.error` carries the reason
 * and the component shows the feature's sentence for it; any other error is 'unknown' there.
 */
export class Refused<R extends string> extends Error {
  constructor(readonly reason: R) {
    super(reason);
    this.name = 'Refused';
  }
}

/** The reason of a mutation's error: a Refused's own, `unknown` for anything else, null for none. */
export function refusalOf<R extends string>(error: unknown): R | 'unknown' | null {
  if (!error) return null;
  return error instanceof Refused ? (error.reason as R) : 'unknown';
}
