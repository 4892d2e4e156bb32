/**
 * HTTP/2 bytes (one direction of a connection, with or without the client preface) read into the frame
 * events the simulator's tracer records (src/wire/http2/sim-trace.ts): each frame with its exact bytes and the
 * byte range of every field, the HPACK steps of every field block decoded in order by one HpackDecoder (the
 * sender's encoder filled the same table, RFC 7541 §2.2), and the stream states the frames move through
 * (the engine's stream table, RFC 9113 §5.1). The frame inspector and the HPACK stepper draw those events.
 *
 * One direction is all a hex dump usually holds, so flow control is told from the sender's side: how much of
 * each window its DATA used (RFC 9113 §6.9.1: the whole payload counts, padding included), and the credit its
 * own WINDOW_UPDATE frames gave the peer.
 */
import {
  CLIENT_PREFACE,
  FLAGS,
  HpackDecoder,
  binaryString,
  frameFields,
  frameFlagNames,
  parseFrame,
  streamTransition,
  type Frame,
  type HpackStep,
  type StreamEvent,
  type StreamState,
  type TraceEvent,
} from 'roundtrip/wire';
import { countOf } from './words';

export type Sender = 'client' | 'server';

export interface H2Problem {
  readonly message: string;
  /** Byte offset in the input. */
  readonly offset: number;
  /** 1-based number of the frame it is in (0: the preface). */
  readonly frame: number;
}

export interface FlowRow {
  /** 0: the connection. */
  readonly streamId: number;
  /** Octets of DATA payload the sender sent (padding included). */
  readonly dataSent: number;
  /** What is left of the window the peer gave, if the peer kept the initial 65,535 and sent no WINDOW_UPDATE in this capture. */
  readonly windowLeft: number;
  /** Credit the sender gave the peer with WINDOW_UPDATE. */
  readonly granted: number;
}

export interface H2Reading {
  readonly sender: Sender;
  readonly preface: boolean;
  readonly events: readonly TraceEvent[];
  readonly frames: number;
  readonly blocks: number;
  readonly flow: readonly FlowRow[];
  readonly problem?: H2Problem;
  /** The dynamic table after the last block. */
  /**
   * The dynamic table at the end, newest (index 62) first. Indices shift as entries arrive (RFC 7541 §2.3.3), so
   * each entry also carries its insertion number (1 for the first field ever inserted), which never changes, and
   * `evicted` counts the entries that left to make room.
   */
  readonly table: {
    readonly size: number;
    readonly maxSize: number;
    readonly entries: readonly { readonly name: string; readonly value: string; readonly inserted: number }[];
    readonly evicted: number;
  };
}

const PREFACE = CLIENT_PREFACE;
const INITIAL_WINDOW = 65_535; // RFC 9113 §6.9.2
const MAX_FRAME = 0xff_ffff; // read whatever the peers agreed on: the largest frame RFC 9113 §4.2 allows

export function startsWithPreface(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x50 && bytes[1] === 0x52 && bytes[2] === 0x49;
}

/**
 * Whether `bytes` read as a run of HTTP/2 frames from the start: each frame header names a known type and a
 * length that fits what is left. Used to tell frames from a bare HPACK block.
 */
export function looksLikeFrames(bytes: Uint8Array): boolean {
  let at = startsWithPreface(bytes) ? PREFACE.length : 0;
  let frames = 0;
  while (at + 9 <= bytes.length) {
    const length = (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]!;
    if (bytes[at + 3]! > 0x09) return false;
    // A capture cut inside its last frame is still frames (the reader then says where it was cut).
    if (at + 9 + length > bytes.length) return frames > 0;
    at += 9 + length;
    frames++;
  }
  return frames > 0;
}

export interface H2Options {
  readonly sender?: Sender;
  readonly connectionId?: string;
  /** SETTINGS_HEADER_TABLE_SIZE the receiver advertised: the largest dynamic table the sender may use. */
  readonly tableSize?: number;
  /**
   * What the bytes read before these left behind, for a reader that gets one direction a piece at a time (the
   * playground's `show`, sandbox/capture-show.ts): the HPACK decoder and the stream states carry on from there.
   */
  readonly state?: H2ReadState;
}

/** The state one direction's frames build up as they are read: the receiver's HPACK table, each stream's state. */
export interface H2ReadState {
  readonly hpack: HpackDecoder;
  readonly streams: Map<number, StreamState>;
}

export function h2ReadState(tableSize = 4096): H2ReadState {
  return { hpack: new HpackDecoder({ maxTableSize: tableSize }), streams: new Map() };
}

export function readFrames(bytes: Uint8Array, options: H2Options = {}): H2Reading {
  const connectionId = options.connectionId ?? 'c1';
  const events: TraceEvent[] = [];
  let seq = 0;
  const hpack = options.state?.hpack ?? new HpackDecoder({ maxTableSize: options.tableSize ?? 4096 });
  let problem: H2Problem | undefined;
  let at = 0;
  let preface = false;
  let sender: Sender | undefined = options.sender;
  if (startsWithPreface(bytes)) {
    const got = bytes.subarray(0, PREFACE.length);
    const bad = PREFACE.findIndex((b, i) => got[i] !== b);
    if (bad >= 0) {
      problem = {
        message:
          bad >= got.length
            ? `The input starts like the client connection preface but ends after ${got.length} of its 24 octets (RFC 9113 §3.4).`
            : `The client connection preface is "PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" (RFC 9113 §3.4); octet ${bad} differs (0x${got[bad]!.toString(16).padStart(2, '0')} instead of 0x${PREFACE[bad]!.toString(16).padStart(2, '0')}).`,
        offset: bad,
        frame: 0,
      };
    } else {
      preface = true;
      sender ??= 'client';
      events.push({ type: 'h2-preface', seq: ++seq, at: 0, connectionId, side: 'client', direction: 'sent', data: binaryString(got) });
      at = PREFACE.length;
    }
  }
  const parsed: {
    frame: Frame;
    start: number;
    end: number;
    ranges: { field: string; start: number; end: number }[];
    block?: { fields: { name: string; value: string }[]; steps: HpackStep[] };
  }[] = [];
  let fragments: Uint8Array[] = [];
  let blocks = 0;
  while (!problem && at < bytes.length) {
    const r = parseFrame(bytes, at, MAX_FRAME, true);
    const number = parsed.length + 1;
    if (r.kind === 'incomplete') {
      const length = at + 3 <= bytes.length ? (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]! : undefined;
      problem = {
        message:
          length === undefined || at + 9 > bytes.length
            ? `Frame ${number} is cut short: ${countOf(bytes.length - at, 'octet')} ${bytes.length - at === 1 ? 'is' : 'are'} left, and a frame header alone is 9 (RFC 9113 §4.1).`
            : `Frame ${number} is cut short: its header announces a ${length}-octet payload, and only ${countOf(bytes.length - at - 9, 'octet')} ${bytes.length - at - 9 === 1 ? 'follows' : 'follow'} it.`,
        offset: at,
        frame: number,
      };
      break;
    }
    if (r.kind === 'error') {
      problem = { message: `Frame ${number} (at octet ${at}): ${r.error.message}`, offset: r.error.offset ?? at, frame: number };
      break;
    }
    if (r.kind === 'ignored') {
      at = r.end; // an unknown frame type is skipped, as RFC 9113 §5.5 requires
      continue;
    }
    const { frame } = r;
    const entry: (typeof parsed)[number] = {
      frame,
      start: at,
      end: r.end,
      ranges: (r.fields ?? []).map((f) => ({ field: f.field, start: f.start - at, end: f.end - at })),
    };
    if (frame.type === 'HEADERS' || frame.type === 'PUSH_PROMISE' || frame.type === 'CONTINUATION') {
      fragments.push(frame.headerBlockFragment);
      if (frame.flags & FLAGS.END_HEADERS) {
        const block = concat(fragments);
        fragments = [];
        try {
          entry.block = hpack.decodeAnnotated(block);
          blocks++;
        } catch (e) {
          problem = {
            message: `The field block that frame ${number} completes does not decode: ${e instanceof Error ? e.message : String(e)} A block depends on every block before it, so a capture that starts mid-connection cannot be decoded.`,
            offset: at,
            frame: number,
          };
        }
        if (!sender && entry.block) {
          const names = entry.block.fields.map((f) => f.name);
          if (names.includes(':method')) sender = 'client';
          else if (names.includes(':status')) sender = 'server';
        }
      }
    }
    parsed.push(entry);
    at = r.end;
  }
  const side: Sender = sender ?? 'client';
  const states = options.state?.streams ?? new Map<number, StreamState>();
  const step = (id: number, input: StreamEvent, t: number) => {
    const from = states.get(id) ?? 'idle';
    const r = streamTransition(from, input, 'send');
    if (!r.ok || r.next === from) return;
    states.set(id, r.next);
    events.push({ type: 'h2-stream-transition', seq: ++seq, at: t, connectionId, side, streamId: id, from, input, direction: 'send', to: r.next });
  };
  const flow = new Map<number, { dataSent: number; granted: number }>();
  const flowOf = (id: number) => {
    let row = flow.get(id);
    if (!row) flow.set(id, (row = { dataSent: 0, granted: 0 }));
    return row;
  };
  flowOf(0);
  parsed.forEach(({ frame, start, end, ranges, block }, i) => {
    const t = i + 1;
    events.push({
      type: 'h2-frame',
      seq: ++seq,
      at: t,
      connectionId,
      side,
      direction: 'sent',
      frameType: frame.type,
      streamId: frame.streamId,
      flags: frameFlagNames(frame),
      length: end - start - 9,
      fields: frameFields(frame),
      data: binaryString(bytes.subarray(start, end)),
      ranges,
      ...(block ? { headers: block.fields, hpack: block.steps } : {}),
    });
    const ends = (frame.flags & FLAGS.END_STREAM) !== 0;
    if (frame.type === 'HEADERS') {
      step(frame.streamId, 'HEADERS', t);
      if (ends) step(frame.streamId, 'END_STREAM', t);
    } else if (frame.type === 'DATA') {
      const payload = end - start - 9;
      flowOf(0).dataSent += payload;
      flowOf(frame.streamId).dataSent += payload;
      if (ends) {
        step(frame.streamId, 'DATA', t);
        step(frame.streamId, 'END_STREAM', t);
      }
    } else if (frame.type === 'PUSH_PROMISE') step(frame.promisedStreamId, 'PUSH_PROMISE', t);
    else if (frame.type === 'RST_STREAM') step(frame.streamId, 'RST_STREAM', t);
    else if (frame.type === 'WINDOW_UPDATE') flowOf(frame.streamId).granted += frame.windowSizeIncrement;
  });
  const table = hpack.tableState;
  // Counted over this reading's blocks: a decoder carried over from earlier segments numbers from here.
  const steps = parsed.flatMap((p) => p.block?.steps ?? []);
  const inserted = steps.filter((st) => st.representation === 'literal-incremental' && st.addedIndex !== null).length;
  const evicted = steps.reduce((n, st) => n + st.evicted, 0);
  return {
    sender: side,
    preface,
    events,
    frames: parsed.length,
    blocks,
    flow: [...flow]
      .map(([streamId, r]) => ({ streamId, dataSent: r.dataSent, windowLeft: INITIAL_WINDOW - r.dataSent, granted: r.granted }))
      .sort((a, b) => a.streamId - b.streamId),
    ...(problem ? { problem } : {}),
    table: {
      size: table.size,
      maxSize: table.maxSize,
      entries: table.entries.map((e, i) => ({ name: e.name, value: e.value, inserted: inserted - i })),
      evicted,
    },
  };
}

/**
 * A field block pasted alone: decoded as if it were the first block on a connection, and wrapped in the
 * HEADERS frame (stream 1, END_HEADERS) that would carry it, so the HPACK stepper can step through it.
 * The frame header is the only thing added, and the page says so.
 */
export function readBlock(block: Uint8Array, tableSize = 4096): { reading: H2Reading; fields: readonly { name: string; value: string }[] } {
  const header = Uint8Array.of((block.length >> 16) & 0xff, (block.length >> 8) & 0xff, block.length & 0xff, 0x01, FLAGS.END_HEADERS, 0, 0, 0, 1);
  const reading = readFrames(concat([header, block]), { sender: 'client', tableSize });
  const last = reading.events.findLast((e) => e.type === 'h2-frame');
  const fields = last?.type === 'h2-frame' && last.headers ? last.headers : [];
  // Offsets in a problem are in the wrapped frame: move them back to the pasted block.
  const problem = reading.problem
    ? {
        ...reading.problem,
        offset: Math.max(0, reading.problem.offset - 9),
        message: reading.problem.message.replace(/^The field block that frame 1 completes/, 'The block'),
      }
    : undefined;
  const { problem: _, ...rest } = reading;
  return { reading: { ...rest, ...(problem ? { problem } : {}) }, fields };
}

/**
 * Field blocks pasted one after another (RFC 7541 C.3 and C.4 are three each): each is wrapped in its own
 * HEADERS frame (streams 1, 3, 5, ...) and all are decoded in order by one decoder, so the dynamic table one
 * block leaves is the table the next block starts with (RFC 7541 §2.3.2).
 */
export function readBlocks(
  blocks: readonly Uint8Array[],
  tableSize = 4096,
): { reading: H2Reading; blocks: readonly (readonly { name: string; value: string }[])[]; failed?: { block: number; offset: number } } {
  const frames = blocks.map((block, i) => {
    const id = 2 * i + 1;
    const header = Uint8Array.of(
      (block.length >> 16) & 0xff,
      (block.length >> 8) & 0xff,
      block.length & 0xff,
      0x01,
      FLAGS.END_HEADERS,
      (id >>> 24) & 0x7f,
      (id >> 16) & 0xff,
      (id >> 8) & 0xff,
      id & 0xff,
    );
    return concat([header, block]);
  });
  const reading = readFrames(concat(frames), { sender: 'client', tableSize });
  const decoded = reading.events.flatMap((e) => (e.type === 'h2-frame' && e.headers ? [e.headers] : []));
  if (!reading.problem) return { reading, blocks: decoded };
  // Offsets in a problem are in the wrapped frames: move them back to the pasted block that failed.
  const block = Math.max(1, reading.problem.frame);
  const start = frames.slice(0, block - 1).reduce((n, f) => n + f.length, 0) + 9;
  const offset = Math.max(0, reading.problem.offset - start);
  const problem = {
    ...reading.problem,
    offset,
    message: reading.problem.message.replace(/^The field block that frame (\d+) completes/, blocks.length > 1 ? 'Block $1' : 'The block'),
  };
  return { reading: { ...reading, problem }, blocks: decoded, failed: { block, offset } };
}

/**
 * RFC 9113 §8.3: each pseudo-header field at most once in a block, and all of them before the first regular
 * field. Returns one sentence per breach (an HTTP/2 receiver treats such a block as malformed, §8.1.1).
 */
export function pseudoHeaderBreaches(fields: readonly { name: string; value: string }[]): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  let regular: string | undefined;
  fields.forEach(({ name }, i) => {
    if (!name.startsWith(':')) {
      regular ??= name;
      return;
    }
    const earlier = seen.get(name);
    if (earlier !== undefined)
      out.push(
        `"${name}" appears again as field ${i + 1} (first as field ${earlier + 1}); each pseudo-header field may appear at most once in a block (RFC 9113 §8.3).`,
      );
    else seen.set(name, i);
    if (regular !== undefined)
      out.push(`"${name}" (field ${i + 1}) comes after the regular field "${regular}"; pseudo-header fields come before every regular field (RFC 9113 §8.3).`);
  });
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
