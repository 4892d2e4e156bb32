/**
 * One direction of one traced HTTP/2 connection, parsed once for the tracers at both its ends (see
 * trace.ts, which explains why the two ends share it).
 */
import { concatBytes, joinBytes } from '../../bytes';
import { type EncodedBlock, HpackDecoder } from '../../hpack/index';
import { CLIENT_PREFACE, FLAGS, type FrameTypeName } from '../../http2/constants';
import { type FrameRanges as Ranges, cachedFlagNames as flagNames, frameFields, frameLayout as layout } from '../../http2/describe';
import { parseFrame } from '../../http2/frame-codec';
import type { Frame } from '../../http2/frames';
import type { NetContext } from '../../net/tcp';
import type { HeaderList, Http2HpackStep, Side } from '../../trace/events';
import { binaryString } from '../../trace/events';
import { frozenFields } from './common';

const EMPTY = new Uint8Array(0);
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});
const NO_NAMES: readonly string[] = Object.freeze([]);
const NO_RANGES: Ranges = Object.freeze([]);
/** The tracer follows whatever the engine accepted, so it reads frames up to the largest size (RFC 9113 §4.2). */
const MAX_FRAME_SIZE = 0xff_ffff;

/** Freezes a decoded field block (the lists and each entry) once, for the events of both ends. */
function frozenBlock(fields: { name: string; value: string }[], steps: Http2HpackStep[]): { headers: HeaderList; hpack: readonly Http2HpackStep[] } {
  return { headers: frozenFields(fields), hpack: frozenFields(steps) };
}

/** One frame as both ends of its flow see it: its event's content, and what the stream table needs. */
export interface FrameFacts {
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
export function sameFields(a: HeaderList, b: readonly { readonly name: string; readonly value: string }[]): boolean {
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
export class FlowEnd {
  /** Bytes of the flow this end has sent or received. */
  pos = 0;
  /** Index (in the flow's numbering) of the next fact to emit. */
  next = 0;
}

/**
 * One direction of one connection: its bytes parsed once into frame facts, read by the tracers of the
 * end that sends them and the end that receives them.
 */
export class Flow {
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
    let buf = this.buffer.length === 0 ? bytes : concatBytes([this.buffer, bytes]);
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
        const bytes = joinBytes(this.block);
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
export function flowFor(ctx: NetContext, connectionId: string, sender: Side): { flow: Flow; end: FlowEnd } {
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
