/**
 * What one HTTP/2 endpoint on the simulated network puts in the trace: every frame it sends or receives
 * ('h2-frame', with exact bytes, byte ranges and, for field blocks, the HPACK steps), the connection
 * preface ('h2-preface'), and every row of the stream state table that changes a stream's state
 * ('h2-stream-transition').
 *
 * The tracer works from the bytes alone, beside the engine rather than inside it (the engine stays free of
 * tracing: ARCHITECTURE.md, 'Engines'): it parses each direction with `parseFrame`, keeps one HPACK decoder per
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
 *
 * The one exception to "from the bytes alone": the sending engine may hand over the HPACK steps its
 * encoder produced for a field block (`encoded`, from `SendResult.block`). Decoding the block's bytes
 * would give exactly those steps, so the flow takes them once it has checked that the block it parsed is
 * byte for byte the one handed over, and only keeps its decoder's table in step (`HpackDecoder.follow`).
 * Anything that does not match is decoded as before. The trace is the same either way.
 */
import { type EncodedBlock, HpackDecoder } from '../hpack/index';
import type { NetContext } from '../net/tcp';
import type { HeaderList, Http2HpackStep, Side } from '../trace/events';
import { binaryString } from '../trace/events';
import { emitPrebuilt } from '../trace/trace';
import { CLIENT_PREFACE, FLAGS, type FrameTypeName, errorCodeName } from './constants';
import { parseFrame } from './frame-codec';
import type { Frame } from './frames';
import { nameOfSetting } from './settings';
import { type StreamEvent, type StreamState, transition } from './stream-states';
import { frozenFields } from './sim-common';

const FLAG_NAMES: Readonly<Partial<Record<FrameTypeName, readonly (readonly [number, string])[]>>> = {
  DATA: [
    [FLAGS.END_STREAM, 'END_STREAM'],
    [FLAGS.PADDED, 'PADDED'],
  ],
  HEADERS: [
    [FLAGS.END_STREAM, 'END_STREAM'],
    [FLAGS.END_HEADERS, 'END_HEADERS'],
    [FLAGS.PADDED, 'PADDED'],
    [FLAGS.PRIORITY, 'PRIORITY'],
  ],
  SETTINGS: [[FLAGS.ACK, 'ACK']],
  PING: [[FLAGS.ACK, 'ACK']],
  PUSH_PROMISE: [
    [FLAGS.END_HEADERS, 'END_HEADERS'],
    [FLAGS.PADDED, 'PADDED'],
  ],
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
/** By frame header (type, flags, padding), then frame size: two small-integer keys, never a boxed number. */
const LAYOUTS = new Map<number, Map<number, Ranges>>();
let layoutCount = 0;
const EMPTY = new Uint8Array(0);
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_RANGES: Ranges = Object.freeze([]);

/** The names of the flags set on `frame` (END_STREAM, ACK, ...), as a trace's h2-frame event lists them. */
export function frameFlagNames(frame: Frame): readonly string[] {
  return Object.freeze((FLAG_NAMES[frame.type] ?? []).filter(([bit]) => frame.flags & bit).map(([, name]) => name));
}

/** Keys of the caches below are numbers built from the frame header's octets: no string per frame. */
function flagNames(frame: Frame, typeCode: number): readonly string[] {
  const key = typeCode * 256 + frame.flags;
  let names = FLAG_LISTS.get(key);
  if (!names) {
    names = frameFlagNames(frame);
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
  // type (8 bits), flags (8) and pad length + 1 (9): 25 bits, a small integer; the frame size (24 bits, §4.1) keys the inner map.
  const head = (buf[start + 3]! * 256 + frame.flags) * 512 + (pad + 1);
  let bySize = LAYOUTS.get(head);
  if (!bySize) LAYOUTS.set(head, (bySize = new Map()));
  let ranges = bySize.get(end - start);
  if (!ranges) {
    const annotated = parseFrame(buf, start, MAX_FRAME_SIZE, true);
    const fields = annotated.kind === 'frame' ? (annotated.fields ?? []) : [];
    ranges = Object.freeze(fields.map((f) => Object.freeze({ field: f.field, start: f.start - start, end: f.end - start })));
    if (layoutCount < MAX_LAYOUTS) {
      bySize.set(end - start, ranges);
      layoutCount++;
    }
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

/**
 * The fields a reader wants to see per frame type, flattened to scalars (SETTINGS by name, error codes with
 * their names, PING's opaque data in hex); frozen, as a trace's h2-frame event holds them.
 */
export function frameFields(frame: Frame): Fields {
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
      return Object.freeze({
        lastStreamId: frame.lastStreamId,
        errorCode: frame.errorCode,
        error: errorCodeName(frame.errorCode),
        debugData: new TextDecoder().decode(frame.debugData),
      });
    case 'WINDOW_UPDATE':
      return oneNumber('windowSizeIncrement', frame.windowSizeIncrement);
  }
}

/** Freezes a decoded field block (the lists and each entry) once, for the events of both ends. */
function frozenBlock(fields: { name: string; value: string }[], steps: Http2HpackStep[]): { headers: HeaderList; hpack: readonly Http2HpackStep[] } {
  return { headers: frozenFields(fields), hpack: frozenFields(steps) };
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

/** Field lists of handed-over blocks, built from their steps as the decoder would (size updates carry no field). */
function fieldsOfSteps(steps: readonly Http2HpackStep[]): { name: string; value: string }[] {
  const fields: { name: string; value: string }[] = [];
  for (const step of steps) if (step.representation !== 'size-update') fields.push({ name: step.name, value: step.value });
  return fields;
}

/**
 * Whether decoding the block's bytes would give back the encoder's strings exactly. The decoder reads
 * octets as UTF-8 (primitives.ts), so text that does not survive a UTF-8 round trip differs: lone
 * surrogates (replaced by U+FFFD) and a leading U+FEFF (TextDecoder drops a byte order mark).
 * ASCII, nearly every field, needs no more than one scan.
 */
function survivesDecoding(steps: readonly Http2HpackStep[]): boolean {
  for (const step of steps) {
    if (step.representation === 'size-update' || step.representation === 'indexed') continue;
    if (!plainText(step.name) || !plainText(step.value)) return false;
  }
  return true;
}

function plainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) return text.isWellFormed() && text.charCodeAt(0) !== 0xfeff;
  }
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The handed-over field list, when it is what the steps decode to (same names and values, in order): the
 * events then share the sender's frozen entries instead of a copy of each.
 */
function listMatches(fields: HeaderList, steps: readonly Http2HpackStep[]): boolean {
  let i = 0;
  for (const step of steps) {
    if (step.representation === 'size-update') continue;
    const f = fields[i++];
    if (f === undefined || f.name !== step.name || f.value !== step.value) return false;
  }
  return i === fields.length;
}

/** Whether a received field list equals the one the tracer decoded (see `receivedBlock`). */
function sameFields(a: HeaderList, b: readonly { readonly name: string; readonly value: string }[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]!.name || a[i]!.value !== b[i]!.value) return false;
  return true;
}

interface Handed {
  readonly block: EncodedBlock;
  /** The field list that was encoded, frozen, entries with exactly `name` and `value`; or undefined. */
  readonly fields: HeaderList | undefined;
}

/** A bound on blocks handed over ahead of their bytes; beyond it the flow decodes as if none had come. */
const MAX_HANDED = 4096;

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
  /**
   * Field blocks the sending engine encoded, with its HPACK steps, in encoding order (which is wire
   * order: RFC 7541 §2.1 needs the decoder to see blocks in the order they were encoded); `handedAt`
   * is the next one to match. False `handing` means the flow decodes every block itself from now on.
   */
  private handed: Handed[] = [];
  private handedAt = 0;
  private handing = true;
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

  /** The sender's engine encoded `block`; its bytes will follow, as part of frames this flow parses. */
  hand(handed: Handed): void {
    if (!this.handing) return;
    if (this.handed.length - this.handedAt >= MAX_HANDED) return this.stopHanding();
    this.handed.push(handed);
  }

  private stopHanding(): void {
    this.handing = false;
    this.handed = [];
    this.handedAt = 0;
  }

  /**
   * The handed-over steps for the block `bytes`, if the next block handed over is exactly these bytes
   * and decoding them would give the same strings. Anything else (bytes the engine produced but never
   * sent, a block that did not come from the engine) ends the handover for good: the decoder's table is
   * still in step, since it followed every block that did go out, so decoding carries on correctly.
   */
  private takeHanded(bytes: Uint8Array): Handed | undefined {
    if (this.handedAt >= this.handed.length) return undefined;
    const next = this.handed[this.handedAt]!;
    if (!sameBytes(next.block.bytes, bytes) || !survivesDecoding(next.block.steps)) {
      this.stopHanding();
      return undefined;
    }
    if (++this.handedAt === this.handed.length) {
      this.handed.length = 0;
      this.handedAt = 0;
    } else if (this.handedAt > 256) {
      this.handed = this.handed.slice(this.handedAt);
      this.handedAt = 0;
    }
    return next;
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
        end: at + CLIENT_PREFACE.length,
        frameType: null,
        streamId: 0,
        flagBits: 0,
        promisedStreamId: 0,
        flags: NO_NAMES,
        length: 0,
        fields: NO_FIELDS,
        data,
        ranges: NO_RANGES,
        blockLength: -1,
        block: undefined,
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
          const handed = this.takeHanded(bytes);
          if (handed) {
            const { steps } = handed.block;
            this.hpack.follow(steps);
            block =
              handed.fields && listMatches(handed.fields, steps)
                ? { headers: handed.fields, hpack: frozenFields(steps) }
                : frozenBlock(fieldsOfSteps(steps), steps);
          } else {
            const r = this.hpack.decodeAnnotated(bytes);
            block = frozenBlock(r.fields, r.steps);
          }
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
      fields: frameFields(frame),
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
  if (waiting?.open && waiting.ends.length === 1) {
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
  /** Field lists of the blocks the last received chunk completed, by stream (see `receivedBlock`). */
  readonly #blocksIn = new Map<number, HeaderList>();

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

  /**
   * The engine encoded a field block that is about to go out (`SendResult.block`): the flow takes its
   * steps instead of decoding the bytes again when they arrive, checking that they are the same bytes.
   * `fields`, the list that was encoded, is used as the events' field list when it is frozen, its entries
   * are frozen and have exactly `name` and `value`, and it matches the steps.
   */
  encoded(block: EncodedBlock | undefined, fields?: HeaderList): void {
    if (block) this.#out.flow.hand({ block, fields: fields && Object.isFrozen(fields) ? fields : undefined });
  }

  /**
   * The frozen field list of the block the last `received` chunk completed on `streamId`, if it equals
   * `fields` (what the engine decoded from the same bytes); else undefined. The endpoint's own events
   * can then share the frame event's entries instead of freezing copies of the same fields.
   */
  receivedBlock(streamId: number, fields: readonly { readonly name: string; readonly value: string }[]): HeaderList | undefined {
    const headers = this.#blocksIn.get(streamId);
    return headers && sameFields(headers, fields) ? headers : undefined;
  }

  sent(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const { flow, end } = this.#out;
    for (const f of flow.advance(end, bytes)) this.#emit(f, 'sent');
  }

  received(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#blocksIn.size > 0) this.#blocksIn.clear();
    const { flow, end } = this.#in;
    for (const f of flow.advance(end, bytes)) {
      if (f.blockLength >= 0) this.#lastBlockReceived = f.blockLength;
      if (f.block) this.#blocksIn.set(f.streamId, f.block.headers);
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
      emitPrebuilt(trace, {
        type: 'h2-frame',
        connectionId,
        side,
        direction,
        frameType,
        streamId,
        flags,
        length,
        fields,
        data,
        ranges,
        headers: block.headers,
        hpack: block.hpack,
        seq: 0,
        at: 0,
      });
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
    emitPrebuilt(this.#ctx.trace, {
      type: 'h2-stream-transition',
      connectionId: this.#connectionId,
      side: this.#side,
      streamId: id,
      from,
      input,
      direction,
      to: r.next,
      seq: 0,
      at: 0,
    });
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
