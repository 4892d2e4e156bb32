/**
 * What one HTTP/2 endpoint on the simulated network puts in the trace: every frame it sends or receives
 * ('h2-frame', with exact bytes, byte ranges and, for field blocks, the HPACK steps), the connection
 * preface ('h2-preface'), and every row of the stream state table that changes a stream's state
 * ('h2-stream-transition').
 *
 * The tracer works from the bytes alone, beside the engine rather than inside it (STYLE practice 3: the
 * engine stays free of tracing): it re-parses each direction with `parseFrame`, keeps one
 * HPACK decoder per direction (the encoder on the other end fills the same dynamic table, so decoding
 * every block in order reproduces it), and shadows stream states with `transition()` from the same
 * table the engine uses. Rows that leave a state unchanged (DATA in open, WINDOW_UPDATE...) are not
 * reported, to keep traces of big bodies readable. Streams the engine closes without a frame (those above
 * a GOAWAY's last stream id) are not reported either.
 */
import { HpackDecoder } from '../hpack/index';
import type { NetContext } from '../net/tcp';
import type { HeaderList, Http2HpackStep, Side } from '../trace/events';
import { binaryString as binaryString_ } from '../trace/events';
import { CLIENT_PREFACE, FLAGS as FLAGS_, type FrameTypeName, errorCodeName } from './constants';
import { parseFrame as parseFrame_ } from './frame-codec';
import type { Frame } from './frames';
import { nameOfSetting } from './settings';
import { type StreamEvent, type StreamState, transition as transition_ } from './stream-states';

// Local bindings for the imports used once per frame: in a test runner's module system (Vitest's, where
// sim.bench.ts measures this) every read of an imported binding is a getter call.
const binaryString = binaryString_;
const FLAGS = FLAGS_;
const parseFrame = parseFrame_;
const transition = transition_;

const FLAG_NAMES: Readonly<Partial<Record<FrameTypeName, readonly (readonly [number, string])[]>>> = {
  DATA: [[FLAGS.END_STREAM, 'END_STREAM'], [FLAGS.PADDED, 'PADDED']],
  HEADERS: [[FLAGS.END_STREAM, 'END_STREAM'], [FLAGS.END_HEADERS, 'END_HEADERS'], [FLAGS.PADDED, 'PADDED'], [FLAGS.PRIORITY, 'PRIORITY']],
  SETTINGS: [[FLAGS.ACK, 'ACK']],
  PING: [[FLAGS.ACK, 'ACK']],
  PUSH_PROMISE: [[FLAGS.END_HEADERS, 'END_HEADERS'], [FLAGS.PADDED, 'PADDED']],
  CONTINUATION: [[FLAGS.END_HEADERS, 'END_HEADERS']],
};

/**
 * Frozen values shared by every event that has them: flag lists, and byte-range layouts (which depend
 * only on type, flags, length and padding). A trace of thousands of frames then holds one copy of each,
 * and the trace's deep freeze skips them. Module-level because they are immutable constants.
 */
const FLAG_LISTS = new Map<string, readonly string[]>();
/** DATA lengths vary freely; a bound keeps the cache small in a long-lived page. */
const MAX_LAYOUTS = 4096;
/** The tracer follows whatever the engine accepted, so it reads frames up to the largest size (RFC 9113 §4.2). */
const MAX_FRAME_SIZE = 0xff_ffff;
const LAYOUTS = new Map<string, readonly { readonly field: string; readonly start: number; readonly end: number }[]>();

function flagNames(frame: Frame): readonly string[] {
  const key = `${frame.type}|${frame.flags}`;
  let names = FLAG_LISTS.get(key);
  if (!names) {
    names = Object.freeze((FLAG_NAMES[frame.type] ?? []).filter(([bit]) => frame.flags & bit).map(([, name]) => name));
    FLAG_LISTS.set(key, names);
  }
  return names;
}

/**
 * The frame's byte-range layout. Most frames hit the cache, so the field ranges are only worked out
 * (by parsing the frame again with annotation) the first time a layout is seen.
 */
function layout(buf: Uint8Array, frame: Frame, start: number, end: number): readonly { readonly field: string; readonly start: number; readonly end: number }[] {
  const pad = 'padding' in frame && frame.padding ? frame.padding.length : -1;
  const key = `${frame.type}|${frame.flags}|${end - start}|${pad}`;
  let ranges = LAYOUTS.get(key);
  if (!ranges) {
    const annotated = parseFrame(buf, start, MAX_FRAME_SIZE, true);
    const fields = annotated.kind === 'frame' ? (annotated.fields ?? []) : [];
    ranges = Object.freeze(fields.map((f) => Object.freeze({ field: f.field, start: f.start - start, end: f.end - start })));
    if (LAYOUTS.size < MAX_LAYOUTS) LAYOUTS.set(key, ranges);
  }
  return ranges;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The fields a reader wants to see per frame type, flattened to scalars. */
function fieldsOf(frame: Frame): Record<string, string | number | boolean> {
  switch (frame.type) {
    case 'DATA':
      return { dataLength: frame.data.length, ...(frame.padding ? { padLength: frame.padding.length } : {}) };
    case 'HEADERS':
    case 'CONTINUATION':
      return { fragmentLength: frame.headerBlockFragment.length };
    case 'PUSH_PROMISE':
      return { promisedStreamId: frame.promisedStreamId, fragmentLength: frame.headerBlockFragment.length };
    case 'PRIORITY':
      return { dependency: frame.priority.dependency, weight: frame.priority.weight, exclusive: frame.priority.exclusive };
    case 'RST_STREAM':
      return { errorCode: frame.errorCode, error: errorCodeName(frame.errorCode) };
    case 'SETTINGS': {
      const out: Record<string, number> = {};
      for (const { id, value } of frame.settings) out[nameOfSetting(id) ?? `0x${id.toString(16)}`] = value;
      return out;
    }
    case 'PING':
      return { opaqueData: hex(frame.opaqueData) };
    case 'GOAWAY':
      return { lastStreamId: frame.lastStreamId, errorCode: frame.errorCode, error: errorCodeName(frame.errorCode), debugData: new TextDecoder().decode(frame.debugData) };
    case 'WINDOW_UPDATE':
      return { windowSizeIncrement: frame.windowSizeIncrement };
  }
}

/** The stream events a frame stands for, in order, with the stream they apply to (RFC 9113 §5.1). */
function streamEvents(frame: Frame): [number, StreamEvent][] {
  const ends = (frame.flags & FLAGS.END_STREAM) !== 0;
  switch (frame.type) {
    case 'HEADERS':
      return ends ? [[frame.streamId, 'HEADERS'], [frame.streamId, 'END_STREAM']] : [[frame.streamId, 'HEADERS']];
    case 'DATA':
      return ends ? [[frame.streamId, 'DATA'], [frame.streamId, 'END_STREAM']] : [[frame.streamId, 'DATA']];
    case 'PUSH_PROMISE':
      return [[frame.promisedStreamId, 'PUSH_PROMISE']];
    case 'RST_STREAM':
      return [[frame.streamId, 'RST_STREAM']];
    default:
      return [];
  }
}

/** One direction of a connection as seen by the tracer: bytes not yet framed, and its HPACK context. */
class Direction {
  buffer: Uint8Array = new Uint8Array(0);
  prefacePending: boolean;
  readonly hpack = new HpackDecoder();
  block: Uint8Array[] = [];
  lastBlockLength = 0;
  constructor(carriesPreface: boolean) {
    this.prefacePending = carriesPreface;
  }
}

export class Http2Tracer {
  readonly #ctx: NetContext;
  readonly #connectionId: string;
  readonly #side: Side;
  readonly #out: Direction;
  readonly #in: Direction;
  readonly #states = new Map<number, StreamState>();

  constructor(ctx: NetContext, connectionId: string, side: Side) {
    this.#ctx = ctx;
    this.#connectionId = connectionId;
    this.#side = side;
    this.#out = new Direction(side === 'client');
    this.#in = new Direction(side === 'server');
  }

  /** Octets of the last complete field block received (HAR headersSize: what HPACK put on the wire). */
  get lastBlockReceived(): number {
    return this.#in.lastBlockLength;
  }

  sent(bytes: Uint8Array): void {
    this.#feed(this.#out, bytes, 'sent');
  }

  received(bytes: Uint8Array): void {
    this.#feed(this.#in, bytes, 'received');
  }

  #feed(dir: Direction, bytes: Uint8Array, direction: 'sent' | 'received'): void {
    if (bytes.length === 0) return;
    let buf = dir.buffer.length === 0 ? bytes : concat(dir.buffer, bytes);
    if (dir.prefacePending) {
      if (buf.length < CLIENT_PREFACE.length) {
        dir.buffer = buf.slice();
        return;
      }
      dir.prefacePending = false;
      this.#ctx.trace.emit({ type: 'h2-preface', connectionId: this.#connectionId, side: this.#side, direction, data: binaryString(buf.subarray(0, CLIENT_PREFACE.length)) });
      buf = buf.subarray(CLIENT_PREFACE.length);
    }
    // Whole frames first, without field ranges (`layout` has them cached); a protocol error anywhere in
    // the chunk means none of it is traced, as the engine reports the error and the tracer stops following.
    const frames: { frame: Frame; start: number; end: number }[] = [];
    let offset = 0;
    for (;;) {
      const r = parseFrame(buf, offset, MAX_FRAME_SIZE, false);
      if (r.kind === 'incomplete') break;
      if (r.kind === 'error') {
        dir.buffer = new Uint8Array(0);
        return;
      }
      if (r.kind === 'frame') frames.push({ frame: r.frame, start: offset, end: r.end });
      offset = r.end;
    }
    for (const { frame, start, end } of frames) this.#frame(dir, buf, frame, start, end, direction);
    dir.buffer = buf.slice(offset);
  }

  #frame(dir: Direction, buf: Uint8Array, frame: Frame, start: number, end: number, direction: 'sent' | 'received'): void {
    const raw = buf.subarray(start, end);
    let block: { headers: HeaderList; hpack: readonly Http2HpackStep[] } | undefined;
    if (frame.type === 'HEADERS' || frame.type === 'PUSH_PROMISE' || frame.type === 'CONTINUATION') {
      dir.block.push(frame.headerBlockFragment);
      if (frame.flags & FLAGS.END_HEADERS) {
        const bytes = dir.block.length === 1 ? dir.block[0]! : dir.block.reduce((a, b) => concat(a, b));
        dir.block = [];
        dir.lastBlockLength = bytes.length;
        try {
          const r = dir.hpack.decodeAnnotated(bytes);
          block = { headers: r.fields, hpack: r.steps };
        } catch {
          block = undefined; // a compression error: the engine says so with GOAWAY
        }
      }
    }
    this.#ctx.trace.emit({
      type: 'h2-frame',
      connectionId: this.#connectionId,
      side: this.#side,
      direction,
      frameType: frame.type,
      streamId: frame.streamId,
      flags: flagNames(frame),
      length: raw.length - 9,
      fields: fieldsOf(frame),
      data: binaryString(raw),
      ranges: layout(buf, frame, start, end),
      ...(block ? { headers: block.headers, hpack: block.hpack } : {}),
    });
    const dirName = direction === 'sent' ? 'send' : 'recv';
    for (const [streamId, input] of streamEvents(frame)) {
      const from = this.#states.get(streamId) ?? 'idle';
      const r = transition(from, input, dirName);
      if (!r.ok || r.next === from) continue;
      if (r.next === 'closed') this.#states.delete(streamId);
      else this.#states.set(streamId, r.next);
      this.#ctx.trace.emit({ type: 'h2-stream-transition', connectionId: this.#connectionId, side: this.#side, streamId, from, input, direction: dirName, to: r.next });
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

