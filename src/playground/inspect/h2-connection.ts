/**
 * Both directions of one HTTP/2 connection read together (issue #30 item 13): the client's bytes and the
 * server's, each cut into frames and decoded with its own HPACK table (the server decodes the client's blocks
 * and the client the server's, RFC 7541 §2.2, each table limited by its receiver's SETTINGS_HEADER_TABLE_SIZE),
 * put in one order, and run through one model of the connection (h2-model.ts): stream states at both
 * endpoints, each direction's DATA against the windows its peer gave (the peer's SETTINGS_INITIAL_WINDOW_SIZE
 * and WINDOW_UPDATE frames), frame sizes against the peer's SETTINGS_MAX_FRAME_SIZE, and each stream's request
 * matched with its response.
 *
 * The order: chunks that carry times (a pcap reader's TCP segments) are merged by time, so every window is
 * checked frame by frame. Pasted bytes carry none; the two directions are then interleaved by causality alone
 * (the server answers a stream only after the client's HEADERS opened it, acknowledges SETTINGS only after
 * they came, and sends nothing before the client's first frame), and a window is flagged only when it is
 * overrun once every frame is counted, which holds in any order.
 */
import { FLAGS, HpackDecoder, binaryString, type TraceEvent } from 'roundtrip/wire';
import { frameEvent, type H2Table, looksLikeFrames, tableOf } from './h2';
import { parseHex } from './hex';
import {
  concat,
  decodeBlocks,
  type FlowRow,
  H2ConnectionModel,
  type H2Problem,
  headerTableSizeOf,
  other,
  PREFACE,
  type ParsedDirection,
  type ParsedFrame,
  parseDirection,
  type Sender,
  startsWithPreface,
} from './h2-model';

/** Bytes one side sent, as they arrived; `time` in ms on any clock both sides share (a capture's timestamps). */
export interface H2Chunk {
  readonly bytes: Uint8Array;
  readonly time?: number;
}

export interface H2ConnectionInput {
  readonly client: readonly H2Chunk[];
  readonly server: readonly H2Chunk[];
}

export interface H2ConnectionOptions {
  readonly connectionId?: string;
}

/** One stream's request and response, matched by stream id. */
export interface H2StreamExchange {
  readonly streamId: number;
  /** Who opened it: the client (a request) or the server (a push, RFC 9113 §8.4). */
  readonly openedBy: Sender;
  readonly request?: readonly { name: string; value: string }[];
  readonly response?: readonly { name: string; value: string }[];
  /** Final status (the last :status of 200 or more). */
  readonly status?: number;
  /** DATA octets each way (padding included). */
  readonly requestData: number;
  readonly responseData: number;
  /** The body bytes each way (padding left out), for Replay. */
  readonly requestBody: Uint8Array;
  readonly responseBody: Uint8Array;
  /** Where each endpoint's stream ended up. */
  readonly states: Readonly<Record<Sender, string>>;
}

export interface H2DirectionSummary {
  readonly preface: boolean;
  readonly frames: number;
  readonly blocks: number;
  readonly bytes: number;
  /** The sender's DATA against the windows its peer gave, and the credit the sender gave with WINDOW_UPDATE. */
  readonly flow: readonly FlowRow[];
  /** The HPACK table the peer decoded this side's blocks with, at the end. */
  readonly table: H2Table;
  /** What stopped reading this side's bytes (its later frames are not read). */
  readonly problem?: H2Problem;
}

export interface H2ConnectionReading {
  /** The events of both sides in one order, `at` in ms from the first chunk (timed) or in steps (untimed). */
  readonly events: readonly TraceEvent[];
  /** Whether the chunks carried times (else the order is the causal interleaving, and `at` counts steps). */
  readonly timed: boolean;
  readonly client: H2DirectionSummary;
  readonly server: H2DirectionSummary;
  readonly streams: readonly H2StreamExchange[];
  /** Breaches found in frames that read (flow control, frame size, stream states), each naming its sender. */
  readonly findings: readonly H2Problem[];
}

interface Placed {
  readonly sender: Sender;
  readonly parsed: ParsedFrame;
  readonly time: number | undefined;
}

/** A side's bytes, and the time at which each byte arrived (the time of the chunk holding it). */
function joined(chunks: readonly H2Chunk[]): { bytes: Uint8Array; timeAt: (offset: number) => number | undefined } {
  const bytes = concat(chunks.length === 0 ? [new Uint8Array(0)] : chunks.map((c) => c.bytes));
  const ends: number[] = [];
  let at = 0;
  for (const c of chunks) ends.push((at += c.bytes.length));
  return {
    bytes,
    timeAt: (offset) => {
      const i = ends.findIndex((end) => offset < end);
      return chunks[i === -1 ? chunks.length - 1 : i]?.time;
    },
  };
}

/**
 * Reads one HTTP/2 connection from both sides' bytes. The pcap reader calls this with each direction's TCP
 * payload in order (`{ bytes, time }` per segment, time in ms); the inspector with pasted sections (no times).
 */
export function readH2Connection(input: H2ConnectionInput, options: H2ConnectionOptions = {}): H2ConnectionReading {
  const connectionId = options.connectionId ?? 'c1';
  const sides = { client: joined(input.client), server: joined(input.server) };
  const parsed: Record<Sender, ParsedDirection> = { client: parseDirection(sides.client.bytes), server: parseDirection(sides.server.bytes) };
  // Each side's blocks are decoded by its peer, whose SETTINGS_HEADER_TABLE_SIZE limits the table (RFC 7541 §4.2).
  const decoders: Record<Sender, HpackDecoder> = {
    client: new HpackDecoder({ maxTableSize: headerTableSizeOf(parsed.server.frames) }),
    server: new HpackDecoder({ maxTableSize: headerTableSizeOf(parsed.client.frames) }),
  };
  const decoded = { client: decodeBlocks(parsed.client.frames, decoders.client), server: decodeBlocks(parsed.server.frames, decoders.server) };
  const timed = [...input.client, ...input.server].length > 0 && [...input.client, ...input.server].every((c) => c.time !== undefined);
  const placed = (sender: Sender): Placed[] =>
    parsed[sender].frames.map((p) => ({ sender, parsed: p, time: sides[sender].timeAt(Math.max(p.start, p.end - 1)) }));
  const order = timed ? byTime(placed('client'), placed('server')) : byCause(placed('client'), placed('server'));
  const origin = timed ? Math.min(...[...input.client, ...input.server].map((c) => c.time!)) : 0;

  const model = new H2ConnectionModel(connectionId, { bothSides: true, ordered: timed });
  const events: TraceEvent[] = [];
  let seq = 0;
  const push = (e: object) => events.push({ ...e, seq: ++seq } as TraceEvent);
  if (parsed.client.preface) {
    const at = timed ? (sides.client.timeAt(PREFACE.length - 1) ?? origin) - origin : 0;
    push({ type: 'h2-preface', at, connectionId, side: 'client', direction: 'sent', data: binaryString(sides.client.bytes.subarray(0, PREFACE.length)) });
  }
  order.forEach(({ sender, parsed: p, time }, i) => {
    const at = timed ? time! - origin : i + 1;
    push(frameEvent(connectionId, sender, sides[sender].bytes, p, at));
    for (const e of model.frame(sender, p, at)) push(e);
  });
  model.finish();

  const summary = (sender: Sender): H2DirectionSummary => {
    const problem = parsed[sender].problem ?? decoded[sender].problem;
    return {
      preface: parsed[sender].preface,
      frames: parsed[sender].frames.length,
      blocks: decoded[sender].blocks,
      bytes: sides[sender].bytes.length,
      flow: model.flow[sender].rows(),
      table: tableOf(
        decoders[sender],
        parsed[sender].frames.flatMap((f) => f.block?.steps ?? []),
      ),
      ...(problem ? { problem: { ...problem, sender } } : {}),
    };
  };
  return {
    events,
    timed,
    client: summary('client'),
    server: summary('server'),
    streams: exchanges(order, model.states),
    findings: model.problems,
  };
}

/** Frames of both sides merged by time; a tie keeps each side's order and puts the client's first. */
function byTime(client: Placed[], server: Placed[]): Placed[] {
  const out: Placed[] = [];
  let i = 0;
  let j = 0;
  while (i < client.length || j < server.length) {
    if (j >= server.length || (i < client.length && client[i]!.time! <= server[j]!.time!)) out.push(client[i++]!);
    else out.push(server[j++]!);
  }
  return out;
}

/**
 * Untimed frames interleaved by what each one needs to have happened first. The server goes as soon as it can
 * (it answers what it has received), the client otherwise: nothing of the server's before the client's first
 * frame (RFC 9113 §3.4: the server's preface answers the client's), a SETTINGS ACK after the SETTINGS it
 * acknowledges (§6.5.3), a frame on a stream after the frame that opened it (§5.1: HEADERS for the client's odd
 * ids, PUSH_PROMISE for the server's even ones).
 */
function byCause(client: Placed[], server: Placed[]): Placed[] {
  const out: Placed[] = [];
  const opened: Record<Sender, Set<number>> = { client: new Set(), server: new Set() };
  const settings: Record<Sender, number> = { client: 0, server: 0 };
  const acks: Record<Sender, number> = { client: 0, server: 0 };
  let clientStarted = client.length === 0;
  const ready = (p: Placed): boolean => {
    const { frame } = p.parsed;
    const peer = other(p.sender);
    if (p.sender === 'server' && !clientStarted) return false;
    if (frame.type === 'SETTINGS' && frame.flags & FLAGS.ACK) return acks[p.sender] < settings[peer];
    const id = frame.streamId;
    if (id === 0 || frame.type === 'PRIORITY') return true;
    const openerOf = id % 2 === 1 ? 'client' : 'server';
    if (openerOf === p.sender) return true;
    return opened[openerOf].has(id);
  };
  const take = (p: Placed): void => {
    const { frame } = p.parsed;
    if (p.sender === 'client') clientStarted = true;
    if (frame.type === 'SETTINGS') {
      if (frame.flags & FLAGS.ACK) acks[p.sender]++;
      else settings[p.sender]++;
    }
    if (frame.type === 'HEADERS') opened[p.sender].add(frame.streamId);
    if (frame.type === 'PUSH_PROMISE') opened[p.sender].add(frame.promisedStreamId);
    out.push(p);
  };
  let i = 0;
  let j = 0;
  while (i < client.length || j < server.length) {
    if (j < server.length && ready(server[j]!)) take(server[j++]!);
    else if (i < client.length) take(client[i++]!);
    else take(server[j++]!); // the client has nothing left: the rest of the server's frames, whatever they wait for
  }
  return out;
}

/** Each stream's request and response, from the frames in order. */
function exchanges(order: readonly Placed[], states: Record<Sender, Map<number, string>>): H2StreamExchange[] {
  const streams = new Map<
    number,
    {
      openedBy: Sender;
      request?: { name: string; value: string }[];
      response?: { name: string; value: string }[];
      status?: number;
      data: Record<Sender, number>;
      body: Record<Sender, Uint8Array[]>;
    }
  >();
  const get = (id: number) => {
    let s = streams.get(id);
    if (!s) streams.set(id, (s = { openedBy: id % 2 === 1 ? 'client' : 'server', data: { client: 0, server: 0 }, body: { client: [], server: [] } }));
    return s;
  };
  // A field block may end on a CONTINUATION frame: it belongs to the stream of the HEADERS or PUSH_PROMISE before it.
  const blockStream: Record<Sender, { id: number; promised: boolean } | undefined> = { client: undefined, server: undefined };
  for (const { sender, parsed } of order) {
    const { frame, block } = parsed;
    if (frame.type === 'HEADERS') blockStream[sender] = { id: frame.streamId, promised: false };
    if (frame.type === 'PUSH_PROMISE') blockStream[sender] = { id: frame.promisedStreamId, promised: true };
    if (frame.type === 'DATA') {
      const s = get(frame.streamId);
      s.data[sender] += parsed.end - parsed.start - 9;
      s.body[sender].push(frame.data);
    }
    if (!block || !blockStream[sender]) continue;
    const { id, promised } = blockStream[sender];
    const s = get(id);
    // A PUSH_PROMISE carries the request the server answers on the promised stream (RFC 9113 §8.4).
    const asRequest = promised || sender === 'client';
    if (asRequest) s.request ??= block.fields;
    else {
      const status = Number(block.fields.find((f) => f.name === ':status')?.value);
      if (!s.response || (Number.isInteger(status) && status >= 200)) s.response = block.fields;
      if (Number.isInteger(status) && status >= 200) s.status ??= status;
    }
  }
  return [...streams]
    .filter(([id]) => id !== 0)
    .sort(([a], [b]) => a - b)
    .map(([streamId, s]) => ({
      streamId,
      openedBy: s.openedBy,
      ...(s.request ? { request: s.request } : {}),
      ...(s.response ? { response: s.response } : {}),
      ...(s.status !== undefined ? { status: s.status } : {}),
      requestData: s.openedBy === 'client' ? s.data.client : 0,
      responseData: s.data.server,
      requestBody: concat(s.openedBy === 'client' && s.body.client.length > 0 ? s.body.client : [new Uint8Array(0)]),
      responseBody: concat(s.body.server.length > 0 ? s.body.server : [new Uint8Array(0)]),
      states: { client: states.client.get(streamId) ?? 'idle', server: states.server.get(streamId) ?? 'idle' },
    }));
}

/**
 * Bytes pasted as one, that hold both directions (the client's, then the server's): where the server's begin.
 * The server's bytes start with its SETTINGS frame (its connection preface, RFC 9113 §3.4), so each later
 * non-ACK SETTINGS frame is a candidate; the first one is taken where both halves decode on their own, the
 * client's blocks carry no :status and the server's carry a :status and no :method. Undefined: no such split.
 */
export function splitDirections(bytes: Uint8Array): { client: Uint8Array; server: Uint8Array; at: number } | undefined {
  const whole = parseDirection(bytes);
  if (!whole.preface) return undefined;
  for (const { frame, start, number } of whole.frames) {
    if (number === 1 || frame.type !== 'SETTINGS' || frame.flags & FLAGS.ACK) continue;
    const client = bytes.subarray(0, start);
    const server = bytes.subarray(start);
    const names = (d: ParsedDirection) => d.frames.flatMap((f) => f.block?.fields.map((x) => x.name) ?? []);
    const c = parseDirection(client);
    const s = parseDirection(server);
    if (c.problem || s.problem) continue;
    if (decodeBlocks(c.frames, new HpackDecoder()).problem || decodeBlocks(s.frames, new HpackDecoder()).problem) continue;
    const cn = names(c);
    const sn = names(s);
    if (!cn.includes(':status') && sn.includes(':status') && !sn.includes(':method')) return { client, server, at: start };
  }
  return undefined;
}

export type H2Section = { readonly from: Sender; readonly text?: string; readonly bytes?: Uint8Array; readonly note?: string };

/**
 * A paste that holds both sides: sections under a line "client:" or "server:" (hex may follow the colon), in
 * any number and order, or exactly two hex blocks separated by a blank line, one starting with the client's
 * connection preface. Undefined: one side only.
 */
export function h2Sections(text: string): H2Section[] | undefined {
  const label = /^\s*(client|server)\s*:\s*(.*)$/i;
  const lines = text.split('\n');
  const first = lines.find((l) => l.trim() !== '');
  if (first && label.test(first)) {
    const out: { from: Sender; text: string }[] = [];
    for (const line of lines) {
      const m = label.exec(line);
      if (m) out.push({ from: m[1]!.toLowerCase() as Sender, text: m[2]! });
      else if (out.length > 0) out[out.length - 1]!.text += `\n${line}`;
    }
    return out;
  }
  const groups = text
    .split(/\n[ \t]*\r?\n/)
    .map((g) => g.trim())
    .filter((g) => g !== '');
  if (groups.length !== 2) return undefined;
  const [a, b] = [parseHex(groups[0]!), parseHex(groups[1]!)];
  if (!a.ok || !b.ok) return undefined;
  const clientFirst = startsWithPreface(a.bytes);
  if (clientFirst === startsWithPreface(b.bytes) || !looksLikeFrames(clientFirst ? b.bytes : a.bytes)) return undefined;
  return [
    { from: 'client', text: groups[clientFirst ? 0 : 1]! },
    { from: 'server', text: groups[clientFirst ? 1 : 0]! },
  ];
}
