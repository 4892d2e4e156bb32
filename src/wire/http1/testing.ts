/** Test helpers: run a reader over chunks and record a comparable transcript. Not public. */
import { Http1Reader, type ReaderOptions, type ResponseContext } from './reader';
import { latin1Encode } from './corpus';

export interface Transcript {
  events: unknown[];
  error?: { code: string; offset: number; line?: number; column?: number; statusHint?: number };
  tolerated: { code: string; offset: number }[];
}

/** Splits `bytes` at the given cut points. */
export const splitAt = (bytes: Uint8Array, cuts: number[]): Uint8Array[] => {
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c <= prev || c >= bytes.length) continue;
    out.push(bytes.subarray(prev, c));
    prev = c;
  }
  out.push(bytes.subarray(prev));
  return out;
};

export const bytewise = (bytes: Uint8Array): Uint8Array[] => Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));

/**
 * Feeds the chunks one at a time, reading events until the reader needs more, then EOF. Data events are
 * merged (chunk boundaries carry no meaning), so transcripts of different splits compare equal.
 */
export const transcript = (
  reads: 'request' | 'response',
  input: string | Uint8Array | Uint8Array[],
  opts: ReaderOptions = {},
  ctx: ResponseContext = {},
): Transcript => {
  const chunks = Array.isArray(input) ? input : [typeof input === 'string' ? latin1Encode(input) : input];
  const reader = new Http1Reader(reads, opts);
  const events: unknown[] = [];
  let pending: number[] = [];
  let codings: readonly string[] | undefined;
  const flush = () => {
    if (pending.length > 0) events.push({ type: 'data', data: String.fromCharCode(...pending), ...(codings ? { codings } : {}) });
    pending = [];
  };
  const drain = (): boolean => {
    for (let guard = 0; guard < 1_000_000; guard++) {
      const ev = reader.next(ctx);
      if (ev.type === 'need-data') return true;
      if (ev.type === 'data') {
        codings = ev.codings;
        for (const b of ev.data) pending.push(b);
        continue;
      }
      flush();
      if (ev.type === 'error') {
        const e = ev.error;
        return (void (result.error = { code: e.code, offset: e.offset, line: e.line, column: e.column, statusHint: e.statusHint }), false);
      }
      events.push(ev.type === 'end-of-message' ? { type: ev.type, trailers: ev.trailers } : ev);
      if (ev.type === 'connection-closed' || ev.type === 'paused') return false;
    }
    throw new Error('reader did not settle');
  };
  const result: Transcript = { events, tolerated: [] };
  let going = true;
  for (const c of chunks) {
    reader.feed(c);
    going = drain();
    if (!going) break;
  }
  if (going) {
    reader.feedEof();
    drain();
  }
  flush();
  result.tolerated = reader.tolerated.map((t) => ({ code: t.code, offset: t.offset }));
  return result;
};
