/**
 * What one HTTP/2 endpoint on the simulated network puts in the trace: every frame it sends or receives
 * ('h2-frame', with exact bytes, byte ranges and, for field blocks, the HPACK steps), the connection
 * preface ('h2-preface'), and every row of the stream state table that changes a stream's state
 * ('h2-stream-transition').
 *
 * The tracer works from the bytes alone, beside the engine rather than inside it (STYLE practice 3: the
 * engine stays free of tracing): it parses each direction with `parseFrame`, keeps one HPACK decoder per
 * direction (the encoder on the other end fills the same dynamic table, so decoding every block in order
 * reproduces it), and shadows stream states with `transition()` from the same table the engine uses.
 * Rows that leave a state unchanged (DATA in open, WINDOW_UPDATE...) are not reported, to keep traces of
 * big bodies readable. Streams the engine closes without a frame (those above a GOAWAY's last stream id)
 * are not reported either.
 *
 * Both ends of a simulated connection are usually traced, and they see the same bytes: what the client
 * sends is, byte for byte, what the server receives (TCP delivers the stream exactly, only later). So each
 * direction of a connection is one `Flow`, shared by the tracers at its two ends: whichever end gets to
 * a byte first parses and decodes it, into frozen `FrameFacts` that both ends' events carry (everything
 * but side, direction, seq and time). Each end emits a frame's event once it has itself sent or received
 * all of the frame's bytes, so the events keep their place in the trace. A tracer whose peer is not
 * traced, or arrives too late to see the flow from its start, gets a flow of its own.
 */
import { HpackDecoder } from '../hpack/index';
import type { NetContext } from '../net/tcp';
import type { HeaderList, Http2HpackStep, Side } from '../trace/events';
import { binaryString } from '../trace/events';
import { emitPrebuilt } from '../trace/trace';
import { CLIENT_PREFACE, FLAGS, type FrameTypeName, errorCodeName } from './constants';
import { parseFrame } from './frame-codec';
import type { Frame } from './frames';
import { nameOfSetting } from './settings';
import { type StreamEvent, type StreamState, transition } from './stream-states';

const FLAG_NAMES: Readonly<Partial<Record<FrameTypeName, readonly (readonly [number, string])[]>>> = {
  DATA: [[FLAGS.END_STREAM, 'END_STREAM'], [FLAGS.PADDED, 'PADDED']],
  HEADERS: [[FLAGS.END_STREAM, 'END_STREAM'], [FLAGS.END_HEADERS, 'END_HEADERS'], [FLAGS.PADDED, 'PADDED'], [FLAGS.PRIORITY, 'PRIORITY']],
  SETTINGS: [[FLAGS.ACK, 'ACK']],
  PING: [[FLAGS.ACK, 'ACK']],
  PUSH_PROMISE: [[FLAGS.END_HEADERS, 'END_HEADERS'], [FLAGS.PADDED, 'PADDED']],
  CONTINUATION: [[FLAGS.END_HEADERS, 'END_HEADERS']],
};

type Ranges = readonly { readonly field: string; readonly start: number; readonly end: number }[];

/**
 * Frozen values shared by every event that has them: flag lists, and byte-range layouts (which depend
 * only on type, flags, length and padding). A trace of thousands of frames then holds one copy of each,
 * and the trace's deep freeze skips them. Module-level because they are immutable constants.
 */
const FLAG_LISTS = new Map<number, readonly string[]>();
/** DATA lengths vary freely; a bound keeps the cache small in a long-lived page. */
const MAX_LAYOUTS = 4096;
/** The tracer follows whatever the engine accepted, so it reads frames up to the largest size (RFC 9113 §4.2). */
const MAX_FRAME_SIZE = 0xff_ffff;
const LAYOUTS = new Map<number, Ranges>();
const EMPTY = new Uint8Array(0);
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_RANGES: Ranges = Object.freeze([]);

/** Keys of the caches below are numbers built from the frame header's octets: no string per frame. */
function flagNames(frame: Frame, typeCode: number): readonly string[] {
  const key = typeCode * 256 + frame.flags;
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
function layout(buf: Uint8Array, frame: Frame, start: number, end: number): Ranges {
  const pad = 'padding' in frame && frame.padding ? frame.padding.length : -1;
  // type (8 bits), flags (8), frame size (24, §4.1) and pad length + 1 (9): 49 bits, exact in a double.
  const key = ((buf[start + 3]! * 256 + frame.flags) * 0x100_0000 + (end - start)) * 512 + (pad + 1);
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

type Fields = Readonly<Record<string, string | number | boolean>>;

/**
 * Frozen one-number field records, shared like the layouts: DATA, HEADERS and WINDOW_UPDATE frames,
 * most of a trace, mostly repeat a few lengths and increments. Bounded like LAYOUTS.
 */
const ONE_NUMBER = new Map<string, Map<number, Fields>>();
const MAX_ONE_NUMBER = 4096;

function oneNumber(name: string, value: number): Fields {
  let byValue = ONE_NUMBER.get(name);
  if (!byValue) ONE_NUMBER.set(name, (byValue = new Map()));
  let fields = byValue.get(value);
  if (!fields) {
    fields = Object.freeze({ [name]: value });
    if (byValue.size < MAX_ONE_NUMBER) byValue.set(value, fields);
  }
  return fields;
}

/** The fields a reader wants to see per frame type, flattened to scalars; frozen, as events hold it. */
function fieldsOf(frame: Frame): Fields {
  switch (frame.type) {
    case 'DATA':
      return frame.padding ? Object.freeze({ dataLength: frame.data.length, padLength: frame.padding.length }) : oneNumber('dataLength', frame.data.length);
    case 'HEADERS':
    case 'CONTINUATION':
      return oneNumber('fragmentLength', frame.headerBlockFragment.length);
    case 'PUSH_PROMISE':
      return Object.freeze({ promisedStreamId: frame.promisedStreamId, fragmentLength: frame.headerBlockFragment.length });
    case 'PRIORITY':
      return Object.freeze({ dependency: frame.priority.dependency, weight: frame.priority.weight, exclusive: frame.priority.exclusive });
    case 'RST_STREAM':
      return Object.freeze({ errorCode: frame.errorCode, error: errorCodeName(frame.errorCode) });
    case 'SETTINGS': {
      if (frame.settings.length === 0) return NO_FIELDS;
      const out: Record<string, number> = {};
      for (const { id, value } of frame.settings) out[nameOfSetting(id) ?? `0x${id.toString(16)}`] = value;
      return Object.freeze(out);
    }
    case 'PING':
      return Object.freeze({ opaqueData: hex(frame.opaqueData) });
    case 'GOAWAY':
      return Object.freeze({ lastStreamId: frame.lastStreamId, errorCode: frame.errorCode, error: errorCodeName(frame.errorCode), debugData: new TextDecoder().decode(frame.debugData) });
    case 'WINDOW_UPDATE':
      return oneNumber('windowSizeIncrement', frame.windowSizeIncrement);
  }
}

/** Freezes a decoded field block (the lists and each entry) once, for the events of both ends. */
function frozenBlock(fields: { name: string; value: string }[], steps: Http2HpackStep[]): { headers: HeaderList; hpack: readonly Http2HpackStep[] } {
  for (let i = 0; i < fields.length; i++) Object.freeze(fields[i]);
  for (let i = 0; i < steps.length; i++) Object.freeze(steps[i]);
  return { headers: Object.freeze(fields), hpack: Object.freeze(steps) };
}

/** One frame as both ends of its flow see it: its event's content, and what the stream table needs. */
interface FrameFacts {
  /** Offset in the flow's byte stream just past the frame (or the preface). */
  readonly end: number;
  /** null for the connection preface. */
  readonly frameType: FrameTypeName | null;
  readonly streamId: number;
  readonly flagBits: number;
  readonly promisedStreamId: number;
  readonly flags: readonly string[];
  readonly length: number;
  readonly fields: Readonly<Record<string, string | number | boolean>>;
  readonly data: string;
  readonly ranges: Ranges;
  /** When the frame completes a field block, its size on the wire (else -1), and the block decoded (undefined on a compression error). */
  readonly blockLength: number;
  readonly block: { readonly headers: HeaderList; readonly hpack: readonly Http2HpackStep[] } | undefined;
}

/** How many frames a flow keeps for an end that has not attached yet, before it stops waiting for it. */
const MAX_UNCLAIMED = 4096;

/** One end's reading position in a flow. */
class FlowEnd {
  /** Bytes of the flow this end has sent or received. */
  pos = 0;
  /** Index (in the flow's numbering) of the next fact to emit. */
  next = 0;
}

/**
 * One direction of one connection: its bytes parsed once into frame facts, read by the tracers of the
 * end that sends them and the end that receives them.
 */
class Flow {
  /** Bytes parsed so far, and those of an incomplete frame at the end. */
  parsed = 0;
  private buffer: Uint8Array = EMPTY;
  private prefacePending: boolean;
  private readonly hpack = new HpackDecoder();
  private block: Uint8Array[] = [];
  /** Facts not yet emitted by every attached end; facts[0] has number `base`. */
  private facts: FrameFacts[] = [];
  private base = 0;
  readonly ends: FlowEnd[] = [];
  /** False once facts were dropped before a second end attached: a late end then needs a flow of its own. */
  open = true;

  constructor(carriesPreface: boolean) {
    this.prefacePending = carriesPreface;
  }

  attach(): FlowEnd {
    const end = new FlowEnd();
    this.ends.push(end);
    return end;
  }

  /** `end` has `bytes` more; parses whatever no end had before, then returns the facts `end` can now emit. */
  advance(end: FlowEnd, bytes: Uint8Array): FrameFacts[] {
    const from = end.pos;
    end.pos += bytes.length;
    if (end.pos > this.parsed) this.parse(from >= this.parsed ? bytes : bytes.subarray(this.parsed - from));
    const out: FrameFacts[] = [];
    while (end.next - this.base < this.facts.length) {
      const f = this.facts[end.next - this.base]!;
      if (f.end > end.pos) break;
      out.push(f);
      end.next++;
    }
    this.trim();
    return out;
  }

  /** Drops facts every attached end has emitted (or, with one end, those past the unclaimed bound). */
  private trim(): void {
    let low = Infinity;
    for (const e of this.ends) low = Math.min(low, e.next);
    if (this.ends.length < 2) {
      if (this.facts.length <= MAX_UNCLAIMED) return;
      this.open = false;
    }
    const n = low - this.base;
    if (n > 256 || (n > 0 && n === this.facts.length)) {
      this.facts = n === this.facts.length ? [] : this.facts.slice(n);
      this.base += n;
    }
  }

  private parse(bytes: Uint8Array): void {
    const start = this.parsed;
    this.parsed += bytes.length;
    let buf = this.buffer.length === 0 ? bytes : concat(this.buffer, bytes);
    let at = start - this.buffer.length;
    if (this.prefacePending) {
      if (buf.length < CLIENT_PREFACE.length) {
        this.buffer = buf.slice();
        return;
      }
      this.prefacePending = false;
      const data = binaryString(buf.subarray(0, CLIENT_PREFACE.length));
      this.facts.push({
        end: at + CLIENT_PREFACE.length, frameType: null, streamId: 0, flagBits: 0, promisedStreamId: 0, flags: NO_NAMES, length: 0,
        fields: NO_FIELDS, data, ranges: NO_RANGES, blockLength: -1, block: undefined,
      });
      buf = buf.subarray(CLIENT_PREFACE.length);
      at += CLIENT_PREFACE.length;
    }
    // Whole frames first, without field ranges (`layout` has them cached); a protocol error anywhere in
    // the chunk means none of it is traced, as the engine reports the error and the tracer stops following.
    // Payloads are views into the chunk: factsOf reads them at once, and copies the one thing it keeps
    // (a field block fragment waiting for its CONTINUATION).
    const frames: { frame: Frame; start: number; end: number }[] = [];
    let offset = 0;
    for (;;) {
      const r = parseFrame(buf, offset, MAX_FRAME_SIZE, false, true);
      if (r.kind === 'incomplete') break;
      if (r.kind === 'error') {
        this.buffer = EMPTY;
        return;
      }
      if (r.kind === 'frame') frames.push({ frame: r.frame, start: offset, end: r.end });
      offset = r.end;
    }
    for (const { frame, start: s, end: e } of frames) this.facts.push(this.factsOf(buf, frame, s, e, at));
    this.buffer = offset === buf.length ? EMPTY : buf.slice(offset);
  }

  private factsOf(buf: Uint8Array, frame: Frame, start: number, end: number, at: number): FrameFacts {
    let block: FrameFacts['block'];
    let blockLength = -1;
    if (frame.type === 'HEADERS' || frame.type === 'PUSH_PROMISE' || frame.type === 'CONTINUATION') {
      const endsBlock = (frame.flags & FLAGS.END_HEADERS) !== 0;
      // A fragment kept past this chunk is copied: the caller owns the chunk's bytes.
      this.block.push(endsBlock ? frame.headerBlockFragment : frame.headerBlockFragment.slice());
      if (endsBlock) {
        const bytes = this.block.length === 1 ? this.block[0]! : this.block.reduce((a, b) => concat(a, b));
        this.block = [];
        blockLength = bytes.length;
        try {
          const r = this.hpack.decodeAnnotated(bytes);
          block = frozenBlock(r.fields, r.steps);
        } catch {
          block = undefined; // a compression error: the engine says so with GOAWAY
        }
      }
    }
    return {
      end: at + end,
      frameType: frame.type,
      streamId: frame.streamId,
      flagBits: frame.flags,
      promisedStreamId: frame.type === 'PUSH_PROMISE' ? frame.promisedStreamId : 0,
      flags: flagNames(frame, buf[start + 3]!),
      length: end - start - 9,
      fields: fieldsOf(frame),
      data: binaryString(buf.subarray(start, end)),
      ranges: layout(buf, frame, start, end),
      blockLength,
      block,
    };
  }
}

/** The flows of the connections traced in one simulation, by connection id and sending side. */
const FLOWS = new WeakMap<object, Map<string, Flow>>();

/**
 * The flow `side` `direction`s on connection `connectionId`, shared with the tracer at the other end
 * when it has attached (or can still attach) to the same flow.
 */
function flowFor(ctx: NetContext, connectionId: string, sender: Side): { flow: Flow; end: FlowEnd } {
  let flows = FLOWS.get(ctx.trace);
  if (!flows) FLOWS.set(ctx.trace, (flows = new Map()));
  const key = `${connectionId} ${sender}`;
  const waiting = flows.get(key);
  if (waiting && waiting.open && waiting.ends.length === 1) {
    flows.delete(key); // both ends are here: nobody else will look it up
    return { flow: waiting, end: waiting.attach() };
  }
  const flow = new Flow(sender === 'client');
  flows.set(key, flow);
  return { flow, end: flow.attach() };
}

export class Http2Tracer {
  readonly #ctx: NetContext;
  readonly #connectionId: string;
  readonly #side: Side;
  readonly #out: { flow: Flow; end: FlowEnd };
  readonly #in: { flow: Flow; end: FlowEnd };
  readonly #states = new Map<number, StreamState>();
  #lastBlockReceived = 0;

  constructor(ctx: NetContext, connectionId: string, side: Side) {
    this.#ctx = ctx;
    this.#connectionId = connectionId;
    this.#side = side;
    this.#out = flowFor(ctx, connectionId, side);
    this.#in = flowFor(ctx, connectionId, side === 'client' ? 'server' : 'client');
  }

  /** Octets of the last complete field block received (HAR headersSize: what HPACK put on the wire). */
  get lastBlockReceived(): number {
    return this.#lastBlockReceived;
  }

  sent(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const { flow, end } = this.#out;
    for (const f of flow.advance(end, bytes)) this.#emit(f, 'sent');
  }

  received(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const { flow, end } = this.#in;
    for (const f of flow.advance(end, bytes)) {
      if (f.blockLength >= 0) this.#lastBlockReceived = f.blockLength;
      this.#emit(f, 'received');
    }
  }

  /**
   * The events are built whole and handed to `emitPrebuilt`: everything they refer to (flag lists,
   * field records, layouts, decoded blocks) was frozen when the facts were made.
   */
  #emit(f: FrameFacts, direction: 'sent' | 'received'): void {
    const { trace } = this.#ctx;
    const connectionId = this.#connectionId;
    const side = this.#side;
    if (f.frameType === null) {
      emitPrebuilt(trace, { type: 'h2-preface', connectionId, side, direction, data: f.data, seq: 0, at: 0 });
      return;
    }
    const { frameType, streamId, flags, length, fields, data, ranges, block } = f;
    if (block) {
      emitPrebuilt(trace, { type: 'h2-frame', connectionId, side, direction, frameType, streamId, flags, length, fields, data, ranges, headers: block.headers, hpack: block.hpack, seq: 0, at: 0 });
    } else {
      emitPrebuilt(trace, { type: 'h2-frame', connectionId, side, direction, frameType, streamId, flags, length, fields, data, ranges, seq: 0, at: 0 });
    }
    // The stream events the frame stands for, in order (RFC 9113 §5.1).
    const dir = direction === 'sent' ? 'send' : 'recv';
    const ends = (f.flagBits & FLAGS.END_STREAM) !== 0;
    switch (frameType) {
      case 'HEADERS':
        this.#step(streamId, 'HEADERS', dir);
        if (ends) this.#step(streamId, 'END_STREAM', dir);
        return;
      case 'DATA':
        if (ends) {
          this.#step(streamId, 'DATA', dir);
          this.#step(streamId, 'END_STREAM', dir);
        }
        return;
      case 'PUSH_PROMISE':
        this.#step(f.promisedStreamId, 'PUSH_PROMISE', dir);
        return;
      case 'RST_STREAM':
        this.#step(streamId, 'RST_STREAM', dir);
        return;
      default:
        return;
    }
  }

  /** Applies one row of the stream table and reports it if it changed the stream's state. */
  #step(id: number, input: StreamEvent, direction: 'send' | 'recv'): void {
    const from = this.#states.get(id) ?? 'idle';
    const r = transition(from, input, direction);
    if (!r.ok || r.next === from) return;
    if (r.next === 'closed') this.#states.delete(id);
    else this.#states.set(id, r.next);
    emitPrebuilt(this.#ctx.trace, { type: 'h2-stream-transition', connectionId: this.#connectionId, side: this.#side, streamId: id, from, input, direction, to: r.next, seq: 0, at: 0 });
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
