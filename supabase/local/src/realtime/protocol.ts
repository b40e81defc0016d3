/**
 * Phoenix socket frames as @supabase/realtime-js 2.x speaks them, in both serializer versions:
 * vsn 1.0.0 sends JSON objects {join_ref, ref, topic, event, payload}; vsn 2.0.0 sends JSON
 * arrays [join_ref, ref, topic, event, payload] plus binary frames for broadcast (the client
 * pushes kind 3 "user broadcast push", the server sends kind 4 "user broadcast"), as in
 * Supabase Realtime's V2 serializer.
 */
export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast whose user payload arrived as bytes (V2 binary push). */
export interface UserBroadcast {
  event: string;
  /** 'json': the bytes are JSON text; 'binary': opaque bytes. */
  encoding: 'json' | 'binary';
  data: Buffer;
}

export interface DecodedMessage extends Message {
  /** Set for a V2 binary broadcast push: payload is then undefined. */
  userBroadcast?: UserBroadcast;
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;

export class FrameError extends Error {}

const asRef = (value: unknown): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : String(value);

export function decodeFrame(vsn: Vsn, data: Buffer, isBinary: boolean): DecodedMessage {
  if (isBinary) {
    if (vsn !== '2.0.0') throw new FrameError('binary frames need vsn 2.0.0');
    return decodeBinary(data);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw new FrameError('frame is not JSON');
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length < 5) throw new FrameError('expected V2 array');
    const [joinRef, ref, topic, event, payload] = parsed;
    if (typeof topic !== 'string' || typeof event !== 'string') throw new FrameError('topic and event must be strings');
    return { join_ref: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FrameError('expected V1 object');
  const m = parsed as Record<string, unknown>;
  if (typeof m.topic !== 'string' || typeof m.event !== 'string') throw new FrameError('topic and event must be strings');
  return { join_ref: asRef(m.join_ref), ref: asRef(m.ref), topic: m.topic, event: m.event, payload: m.payload };
}

function decodeBinary(buf: Buffer): DecodedMessage {
  if (buf.length < 7 || buf[0] !== KIND_USER_BROADCAST_PUSH) throw new FrameError('unsupported binary frame');
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [buf[1], buf[2], buf[3], buf[4], buf[5], buf[6]];
  let offset = 7;
  const take = (n: number) => {
    if (offset + n > buf.length) throw new FrameError('truncated binary frame');
    const part = buf.subarray(offset, offset + n);
    offset += n;
    return part;
  };
  const joinRef = take(joinRefLen).toString('utf8');
  const ref = take(refLen).toString('utf8');
  const topic = take(topicLen).toString('utf8');
  const event = take(eventLen).toString('utf8');
  take(metaLen); // metadata (e.g. persist): not used by public channels
  const data = Buffer.from(buf.subarray(offset));
  return {
    join_ref: joinRef || null,
    ref: ref || null,
    topic,
    event: 'broadcast',
    payload: undefined,
    userBroadcast: { event, encoding: encoding === 0 ? 'binary' : 'json', data },
  };
}

export function encodeMessage(vsn: Vsn, m: Message): string {
  if (vsn === '2.0.0') return JSON.stringify([m.join_ref, m.ref, m.topic, m.event, m.payload]);
  return JSON.stringify({ topic: m.topic, event: m.event, payload: m.payload, ref: m.ref, join_ref: m.join_ref });
}

export function encodeReply(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  status: 'ok' | 'error',
  response: unknown,
): string {
  return encodeMessage(vsn, { join_ref: joinRef, ref, topic, event: 'phx_reply', payload: { status, response } });
}

/**
 * A broadcast for a subscriber: V2 gets a binary user broadcast frame; V1 gets the JSON
 * broadcast (a binary user payload cannot be sent to V1 and is dropped, as Realtime does).
 */
export function encodeUserBroadcast(vsn: Vsn, topic: string, b: UserBroadcast): string | Buffer | undefined {
  if (vsn === '1.0.0') {
    if (b.encoding !== 'json') return undefined;
    let inner: unknown;
    try {
      inner = JSON.parse(b.data.toString('utf8'));
    } catch {
      return undefined;
    }
    return encodeMessage(vsn, {
      join_ref: null,
      ref: null,
      topic,
      event: 'broadcast',
      payload: { event: b.event, payload: inner, type: 'broadcast' },
    });
  }
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(b.event, 'utf8');
  if (topicBytes.length > 255 || eventBytes.length > 255) return undefined;
  const header = Buffer.from([KIND_USER_BROADCAST, topicBytes.length, eventBytes.length, 0, b.encoding === 'json' ? 1 : 0]);
  return Buffer.concat([header, topicBytes, eventBytes, b.data]);
}
