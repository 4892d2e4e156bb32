/**
 * HTTP/2 bytes (one direction of a connection, with or without the client preface) read into the frame
 * events the simulator's tracer records (src/wire/http2/sim-trace.ts): each frame with its exact bytes and the
 * byte range of every field, the HPACK steps of every field block decoded in order by one HpackDecoder (the
 * sender's encoder filled the same table, RFC 7541 §2.2; a block that does not decode is reported at the byte
 * where it fails), and the stream states the frames move each endpoint through (the engine's stream table,
 * RFC 9113 §5.1: 'send' for the sender, 'recv' for its peer). The frame inspector and the HPACK stepper draw
 * those events. Both directions of one connection are read by h2-connection.ts; what the two share is in
 * h2-model.ts.
 *
 * One direction is all a hex dump usually holds, so the peer's part is told from defaults: a stream the peer
 * must have opened (a server's frames on stream 13) was opened by the peer's HEADERS, which the capture does
 * not hold; flow control counts how much of each window the sender's DATA used against the 65,535 octets a
 * peer starts with (RFC 9113 §6.9.1: the whole payload counts, padding included) and the credit the sender's
 * own WINDOW_UPDATE frames gave; a frame over the default SETTINGS_MAX_FRAME_SIZE is flagged. Each such finding
 * says that the peer's frames, not captured, might have allowed it.
 */
import { FLAGS, HpackDecoder, binaryString, frameFields, frameFlagNames, type StreamState, type TraceEvent } from 'roundtrip/wire';
import {
  concat,
  decodeBlocks,
  type FlowRow,
  H2ConnectionModel,
  type H2Problem,
  other,
  PREFACE,
  parseDirection,
  type Sender,
  startsWithPreface,
} from './h2-model';

export { startsWithPreface } from './h2-model';
export type { FlowRow, H2Problem, Sender } from './h2-model';

export interface H2Reading {
  readonly sender: Sender;
  readonly preface: boolean;
  readonly events: readonly TraceEvent[];
  readonly frames: number;
  readonly blocks: number;
  readonly flow: readonly FlowRow[];
  /** What stopped the reading (the frames after it are not read). */
  readonly problem?: H2Problem;
  /**
   * Breaches found in frames that read: a flow-control window overrun (RFC 9113 §6.9.1), a frame over the
   * receiver's SETTINGS_MAX_FRAME_SIZE (§4.2), a frame the receiver's stream state does not allow (§5.1).
   */
  readonly findings: readonly H2Problem[];
  /** Streams the peer opened with a frame this capture does not hold (their states start from it). */
  readonly openedByPeer: readonly number[];
  /**
   * The dynamic table at the end, newest (index 62) first. Indices shift as entries arrive (RFC 7541 §2.3.3), so
   * each entry also carries its insertion number (1 for the first field ever inserted), which never changes, and
   * `evicted` counts the entries that left to make room.
   */
  readonly table: H2Table;
}

export interface H2Table {
  readonly size: number;
  readonly maxSize: number;
  readonly entries: readonly { readonly name: string; readonly value: string; readonly inserted: number }[];
  readonly evicted: number;
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

/**
 * The state one direction's frames build up as they are read: the receiver's HPACK table, each stream's state
 * at the sender (`streams`) and at its peer (`peer`).
 */
export interface H2ReadState {
  readonly hpack: HpackDecoder;
  readonly streams: Map<number, StreamState>;
  readonly peer?: Map<number, StreamState>;
}

export function h2ReadState(tableSize = 4096): H2ReadState {
  return { hpack: new HpackDecoder({ maxTableSize: tableSize }), streams: new Map(), peer: new Map() };
}

/**
 * Read states for both directions of one connection read a piece at a time (the playground's `show` with
 * `from: 'client'` and `from: 'server'`): one HPACK decoder per direction, and one map of stream states per
 * endpoint that both directions move, so a server's frames find the streams the client's HEADERS opened.
 */
export function h2ConnectionReadStates(tableSize = 4096): Record<Sender, H2ReadState> {
  const client = new Map<number, StreamState>();
  const server = new Map<number, StreamState>();
  return {
    client: { hpack: new HpackDecoder({ maxTableSize: tableSize }), streams: client, peer: server },
    server: { hpack: new HpackDecoder({ maxTableSize: tableSize }), streams: server, peer: client },
  };
}

/** The dynamic table `hpack` holds, numbered by insertion over the blocks of `steps`. */
export function tableOf(hpack: HpackDecoder, steps: readonly { representation: string; addedIndex?: number | null; evicted: number }[]): H2Table {
  const table = hpack.tableState;
  // Counted over this reading's blocks: a decoder carried over from earlier segments numbers from here.
  const inserted = steps.filter((st) => st.representation === 'literal-incremental' && st.addedIndex !== null).length;
  const evicted = steps.reduce((n, st) => n + st.evicted, 0);
  return {
    size: table.size,
    maxSize: table.maxSize,
    entries: table.entries.map((e, i) => ({ name: e.name, value: e.value, inserted: inserted - i })),
    evicted,
  };
}

/** The 'h2-frame' event of a frame read from `bytes`. */
export function frameEvent(
  connectionId: string,
  side: Sender,
  bytes: Uint8Array,
  p: {
    frame: import('roundtrip/wire').Frame;
    start: number;
    end: number;
    ranges: { field: string; start: number; end: number }[];
    block?: { fields: { name: string; value: string }[]; steps: import('roundtrip/wire').HpackStep[] };
  },
  at: number,
): Omit<Extract<TraceEvent, { type: 'h2-frame' }>, 'seq'> {
  const { frame, start, end, ranges, block } = p;
  return {
    type: 'h2-frame',
    at,
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
  };
}

export function readFrames(bytes: Uint8Array, options: H2Options = {}): H2Reading {
  const connectionId = options.connectionId ?? 'c1';
  const hpack = options.state?.hpack ?? new HpackDecoder({ maxTableSize: options.tableSize ?? 4096 });
  const parsed = parseDirection(bytes);
  const decoded = decodeBlocks(parsed.frames, hpack);
  const problem = parsed.problem ?? decoded.problem;
  // Who sent them: the preface says the client; else the first block with :method or :status.
  let sender: Sender | undefined = options.sender ?? (parsed.preface ? 'client' : undefined);
  for (const { block } of parsed.frames) {
    if (sender || !block) continue;
    const names = block.fields.map((f) => f.name);
    if (names.includes(':method')) sender = 'client';
    else if (names.includes(':status')) sender = 'server';
  }
  const side: Sender = sender ?? 'client';
  const events: TraceEvent[] = [];
  let seq = 0;
  if (parsed.preface) {
    events.push({
      type: 'h2-preface',
      seq: ++seq,
      at: 0,
      connectionId,
      side: 'client',
      direction: 'sent',
      data: binaryString(bytes.subarray(0, PREFACE.length)),
    });
  }
  const model = new H2ConnectionModel(connectionId, {
    bothSides: false,
    ordered: true,
    ...(options.state ? { states: { [side]: options.state.streams, [other(side)]: options.state.peer ?? new Map() } } : {}),
  });
  parsed.frames.forEach((p, i) => {
    const t = i + 1;
    events.push({ ...frameEvent(connectionId, side, bytes, p, t), seq: ++seq });
    for (const e of model.frame(side, p, t)) events.push({ ...e, seq: ++seq } as TraceEvent);
  });
  const steps = parsed.frames.flatMap((p) => p.block?.steps ?? []);
  return {
    sender: side,
    preface: parsed.preface,
    events,
    frames: parsed.frames.length,
    blocks: decoded.blocks,
    flow: model.flow[side].rows(),
    ...(problem ? { problem } : {}),
    findings: model.problems,
    openedByPeer: model.inferred.map((o) => o.streamId),
    table: tableOf(hpack, steps),
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
