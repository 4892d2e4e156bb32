/**
 * What the Frames view reads out of an HTTP/3 recording: each QUIC packet as the trace carries it (the bytes
 * of 'quic-packet-sent', quic-codec.ts's encoding), a Wireshark-style field tree whose every leaf knows its
 * byte range in the packet (RFC 9000 §17 headers, §19 frames, the 16-byte AEAD tag of RFC 9001 §5.3), and the
 * HTTP/3 frames (RFC 9114 §7.2) read from each stream's STREAM data, including the unidirectional control,
 * QPACK encoder and QPACK decoder streams (RFC 9114 §6.2, RFC 9204 §4.2).
 *
 * Ranges are measured here by walking the bytes field by field, so the tree shows what is on the wire, not a
 * re-encoding; decodeQuicPacket checks the same bytes and its numbers label the tree.
 */
import {
  bytesOf,
  decodeHttp3Frames,
  decodeQuicPacket,
  deriveQuicInitialKeys,
  describeQuicFrame,
  protectQuicInitial,
  readQuicFrame,
  readQuicVarint,
  unprotectQuicInitial,
} from 'roundtrip/wire';
import type { DecodedQuicPacket, Http3Frame, QuicFrame, TraceEventOf } from 'roundtrip/wire';
import type { Recording, WireSource } from '../../recording/model';
import type { FieldNode } from './model';

export type QuicPacketEvent = TraceEventOf<'quic-packet-sent'>;

export interface QuicPacketRef {
  readonly event: QuicPacketEvent;
  readonly bytes: Uint8Array;
  /** Index of the event in its source's `events`, and its step in the recording. */
  readonly index: number;
  readonly step: number;
}

/** One QUIC connection of one simulation: both sides' packets, in the order they were sent. */
export interface QuicConnectionView {
  /** `${sourceId}/${connectionId}`. */
  readonly key: string;
  readonly source: WireSource;
  readonly connectionId: string;
  readonly packets: readonly QuicPacketRef[];
  readonly streams: readonly QuicStreamView[];
}

export type QuicStreamKind = 'request' | 'control' | 'qpack-encoder' | 'qpack-decoder' | 'push' | 'unknown';

/** One direction of one stream: its bytes put back together from STREAM frames, and what they hold. */
export interface QuicStreamView {
  readonly streamId: number;
  readonly from: 'client' | 'server';
  readonly kind: QuicStreamKind;
  /** Contiguous bytes from offset 0 (a retransmission adds nothing; a gap ends them). */
  readonly bytes: Uint8Array;
  /** HTTP/3 frames with their range in the stream; for QPACK streams none (the stepper reads them). */
  readonly frames: readonly Http3FrameAt[];
  /** Where the stream-type varint ends on a unidirectional stream (0 on a request stream). */
  readonly typeEnd: number;
}

export interface Http3FrameAt {
  readonly frame: Http3Frame;
  /** [start, end) in the stream's bytes: type and length varints, then the payload from `payloadStart`. */
  readonly start: number;
  readonly payloadStart: number;
  readonly end: number;
}

const STREAM_TYPE_KIND: Readonly<Record<number, QuicStreamKind>> = { 0: 'control', 1: 'push', 2: 'qpack-encoder', 3: 'qpack-decoder' };
export const STREAM_KIND_LABEL: Readonly<Record<QuicStreamKind, string>> = {
  request: 'request',
  control: 'control (type 0x00)',
  'qpack-encoder': 'QPACK encoder (type 0x02)',
  'qpack-decoder': 'QPACK decoder (type 0x03)',
  push: 'push (type 0x01)',
  unknown: 'unknown type',
};

const indexes = new WeakMap<Recording, readonly QuicConnectionView[]>();

/** Every QUIC connection whose packets carry bytes, in order of first packet; built once per recording. */
export function quicConnections(recording: Recording): readonly QuicConnectionView[] {
  const cached = indexes.get(recording);
  if (cached) return cached;
  const building = new Map<string, { source: WireSource; connectionId: string; packets: QuicPacketRef[] }>();
  const sources = new Map(recording.sources.map((s) => [s.id, s]));
  recording.steps.forEach((step, at) => {
    const source = sources.get(step.sourceId);
    if (source?.kind !== 'wire') return;
    const e = source.events[step.index];
    if (e?.type !== 'quic-packet-sent' || e.data === undefined) return;
    const key = `${source.id}/${e.connectionId}`;
    let c = building.get(key);
    if (!c) building.set(key, (c = { source, connectionId: e.connectionId, packets: [] }));
    c.packets.push({ event: e, bytes: bytesOf(e.data), index: step.index, step: at });
  });
  const out = [...building].map(([key, c]) => ({ key, ...c, streams: streamsOf(c.packets) }));
  indexes.set(recording, out);
  return out;
}

/** The packet at or before `cursor` in `connection` (the latest sent), or undefined. */
export function packetAtCursor(connection: QuicConnectionView, cursor: number): number {
  let lo = 0;
  let hi = connection.packets.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (connection.packets[mid]!.step <= cursor) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The DCID of the client's first Initial, from which both sides' Initial keys derive (RFC 9001 §5.2). */
export function originalDcid(connection: QuicConnectionView): Uint8Array | undefined {
  const first = connection.packets.find((p) => p.event.from === 'client' && p.event.space === 'initial');
  return first ? decodePacket(first).header.dcid : undefined;
}

/** Decodes a traced packet (unprotected; the tag is the simulator's 16 zero bytes). */
export function decodePacket(ref: QuicPacketRef): DecodedQuicPacket {
  const decoded = decodeQuicPacket(ref.bytes, 0, { largestReceived: () => undefined });
  if (!('header' in decoded)) throw new Error(`packet ${ref.event.packetNumber} is not a packet with frames`);
  return decoded;
}

// --- streams ------------------------------------------------------------------------------------------

function streamsOf(packets: readonly QuicPacketRef[]): QuicStreamView[] {
  const chunks = new Map<string, { streamId: number; from: 'client' | 'server'; parts: { offset: number; data: Uint8Array }[] }>();
  for (const ref of packets) {
    if (ref.event.space !== '1rtt' && ref.event.space !== '0rtt') continue;
    let decoded: DecodedQuicPacket;
    try {
      decoded = decodePacket(ref);
    } catch {
      continue; // the tree reports the error where it is
    }
    for (const f of decoded.frames) {
      if (f.type !== 'STREAM') continue;
      const key = `${ref.event.from}/${f.streamId}`;
      let c = chunks.get(key);
      if (!c) chunks.set(key, (c = { streamId: f.streamId, from: ref.event.from, parts: [] }));
      c.parts.push({ offset: f.offset, data: f.data });
    }
  }
  const out: QuicStreamView[] = [];
  for (const c of chunks.values()) {
    c.parts.sort((a, b) => a.offset - b.offset);
    let end = 0;
    for (const p of c.parts) if (p.offset <= end) end = Math.max(end, p.offset + p.data.length);
    const bytes = new Uint8Array(end);
    for (const p of c.parts) if (p.offset < end) bytes.set(p.data.subarray(0, Math.min(p.data.length, end - p.offset)), p.offset);
    out.push(streamView(c.streamId, c.from, bytes));
  }
  return out.sort((a, b) => a.streamId - b.streamId || (a.from === 'client' ? -1 : 1));
}

function streamView(streamId: number, from: 'client' | 'server', bytes: Uint8Array): QuicStreamView {
  // RFC 9000 §2.1: bit 0x2 set marks a unidirectional stream, which starts with its type (RFC 9114 §6.2).
  let kind: QuicStreamKind = 'request';
  let typeEnd = 0;
  if ((streamId & 0x2) !== 0) {
    const type = readQuicVarint(bytes, 0);
    if (type.kind !== 'ok') return { streamId, from, kind: 'unknown', bytes, frames: [], typeEnd: 0 };
    kind = STREAM_TYPE_KIND[type.value] ?? 'unknown';
    typeEnd = type.next;
  }
  const frames: Http3FrameAt[] = [];
  if (kind === 'request' || kind === 'control') {
    let pos = typeEnd;
    try {
      const { frames: decoded } = decodeHttp3Frames(bytes.subarray(typeEnd));
      for (const frame of decoded) {
        const t = readQuicVarint(bytes, pos);
        const l = t.kind === 'ok' ? readQuicVarint(bytes, t.next) : t;
        if (l.kind !== 'ok') break;
        frames.push({ frame, start: pos, payloadStart: l.next, end: l.next + l.value });
        pos = l.next + l.value;
      }
    } catch {
      // A malformed frame: the ones before it are listed; the engine reports the error itself.
    }
  }
  return { streamId, from, kind, bytes, frames, typeEnd };
}

// --- the field tree -----------------------------------------------------------------------------------

const hex = (bytes: Uint8Array, start: number, end: number) =>
  Array.from(bytes.subarray(start, end), (b) => b.toString(16).padStart(2, '0')).join('') || '(empty)';
const bits = (b: number, from: number, to: number) => b.toString(2).padStart(8, '0').slice(from, to);
const LONG_TYPES = ['Initial (0)', '0-RTT (1)', 'Handshake (2)', 'Retry (3)'];

function varintNode(id: string, label: string, bytes: Uint8Array, pos: number, note = ''): { node: FieldNode; value: number; next: number } {
  const r = readQuicVarint(bytes, pos);
  if (r.kind !== 'ok') throw new Error(`${label}: the packet ends inside a variable-length integer at byte ${pos}`);
  return { node: { id, label, value: `${r.value}${note}`, start: pos, end: r.next }, value: r.value, next: r.next };
}

/**
 * The packet's fields, each with its byte range in `ref.bytes`: the header, one node per frame (its own
 * fields below it), and the tag. `streams` (the connection's) lets a STREAM frame name the HTTP/3 frames in it.
 */
export function quicPacketTree(ref: QuicPacketRef, streams: readonly QuicStreamView[] = []): FieldNode[] {
  const b = ref.bytes;
  const decoded = decodePacket(ref);
  const first = b[0]!;
  const long = (first & 0x80) !== 0;
  const pnLength = decoded.header.packetNumberLength;
  const header: FieldNode[] = [];
  const firstByte: FieldNode[] = [
    { id: 'form', label: 'Header Form', value: `${bits(first, 0, 1)} (${long ? 'long, RFC 9000 §17.2' : 'short, §17.3'})`, start: 0, end: 1 },
    { id: 'fixed', label: 'Fixed Bit', value: bits(first, 1, 2), start: 0, end: 1 },
  ];
  if (long) {
    firstByte.push(
      { id: 'long-type', label: 'Long Packet Type', value: `${bits(first, 2, 4)}: ${LONG_TYPES[(first >> 4) & 3]}`, start: 0, end: 1 },
      { id: 'reserved', label: 'Reserved Bits', value: bits(first, 4, 6), start: 0, end: 1 },
    );
  } else {
    firstByte.push(
      { id: 'spin', label: 'Spin Bit', value: bits(first, 2, 3), start: 0, end: 1 },
      { id: 'reserved', label: 'Reserved Bits', value: bits(first, 3, 5), start: 0, end: 1 },
      { id: 'key-phase', label: 'Key Phase', value: bits(first, 5, 6), start: 0, end: 1 },
    );
  }
  firstByte.push({ id: 'pn-length', label: 'Packet Number Length', value: `${bits(first, 6, 8)} (${pnLength} bytes)`, start: 0, end: 1 });
  header.push({ id: 'first-byte', label: 'First byte', value: `0x${first.toString(16).padStart(2, '0')}`, start: 0, end: 1, children: firstByte });
  let pos = 1;
  if (long) {
    header.push({ id: 'version', label: 'Version', value: `0x${hex(b, 1, 5)}`, start: 1, end: 5 });
    const dl = b[5]!;
    header.push({ id: 'dcid-length', label: 'DCID Length', value: String(dl), start: 5, end: 6 });
    header.push({ id: 'dcid', label: 'Destination Connection ID', value: hex(b, 6, 6 + dl), start: 6, end: 6 + dl });
    pos = 6 + dl;
    const sl = b[pos]!;
    header.push({ id: 'scid-length', label: 'SCID Length', value: String(sl), start: pos, end: pos + 1 });
    header.push({ id: 'scid', label: 'Source Connection ID', value: hex(b, pos + 1, pos + 1 + sl), start: pos + 1, end: pos + 1 + sl });
    pos += 1 + sl;
    if (decoded.space === 'initial') {
      const t = varintNode('token-length', 'Token Length', b, pos);
      header.push(t.node);
      if (t.value > 0) header.push({ id: 'token', label: 'Token', value: hex(b, t.next, t.next + t.value), start: t.next, end: t.next + t.value });
      pos = t.next + t.value;
    }
    const length = varintNode('length', 'Length', b, pos, ' (packet number, frames and tag)');
    header.push(length.node);
    pos = length.next;
  } else {
    const dl = decoded.header.dcid.length;
    header.push({ id: 'dcid', label: 'Destination Connection ID', value: hex(b, 1, 1 + dl), start: 1, end: 1 + dl });
    pos = 1 + dl;
  }
  header.push({
    id: 'packet-number',
    label: 'Packet Number',
    value: `${decoded.header.truncatedNumber} on the wire (${pnLength} byte${pnLength > 1 ? 's' : ''}), full number ${ref.event.packetNumber} (RFC 9000 §17.1)`,
    start: pos,
    end: pos + pnLength,
  });
  const frames: FieldNode[] = [];
  let at = decoded.payloadStart;
  let n = 0;
  while (at < decoded.payloadEnd) {
    const read = readQuicFrame(b.subarray(0, decoded.payloadEnd), at);
    if (read.kind !== 'ok') break;
    frames.push(frameNode(`frame[${n}]`, read.frame, b, at, read.next, ref.event.from, streams));
    at = read.next;
    n++;
  }
  const headerEnd = decoded.payloadStart;
  return [
    {
      id: 'header',
      label: long ? 'Long header' : 'Short header',
      value: `${decoded.space} packet ${ref.event.packetNumber}`,
      start: 0,
      end: headerEnd,
      children: header,
    },
    { id: 'frames', label: 'Frames', value: `${frames.length}`, start: decoded.payloadStart, end: decoded.payloadEnd, children: frames },
    {
      id: 'tag',
      label: 'AEAD tag',
      value: `${b.length - decoded.payloadEnd} bytes, zeros: the simulator does not encrypt this packet (RFC 9001 §5.3)`,
      start: decoded.payloadEnd,
      end: b.length,
    },
  ];
}

function frameNode(
  id: string,
  frame: QuicFrame,
  b: Uint8Array,
  start: number,
  end: number,
  from: 'client' | 'server',
  streams: readonly QuicStreamView[],
): FieldNode {
  const type = varintNode(`${id}.type`, 'Frame Type', b, start);
  const children: FieldNode[] = [];
  if (frame.type === 'STREAM') {
    const t = type.value;
    children.push({
      ...type.node,
      value: `0x${t.toString(16).padStart(2, '0')}: OFF=${(t >> 2) & 1} LEN=${(t >> 1) & 1} FIN=${t & 1} (RFC 9000 §19.8)`,
    });
    let pos = type.next;
    const sid = varintNode(`${id}.stream-id`, 'Stream ID', b, pos);
    children.push(sid.node);
    pos = sid.next;
    if (t & 0x04) {
      const off = varintNode(`${id}.offset`, 'Offset', b, pos);
      children.push(off.node);
      pos = off.next;
    }
    if (t & 0x02) {
      const len = varintNode(`${id}.length`, 'Length', b, pos);
      children.push(len.node);
      pos = len.next;
    }
    children.push({
      id: `${id}.data`,
      label: 'Stream Data',
      value: `${end - pos} bytes`,
      start: pos,
      end,
      children: http3Inside(id, frame, pos, from, streams),
    });
  } else if (frame.type === 'CRYPTO') {
    children.push(type.node);
    const off = varintNode(`${id}.offset`, 'Offset', b, type.next);
    const len = varintNode(`${id}.length`, 'Length', b, off.next);
    children.push(off.node, len.node, {
      id: `${id}.data`,
      label: 'Crypto Data',
      value: `${len.value} bytes${frame.messages ? `: ${frame.messages}` : ''}`,
      start: len.next,
      end,
    });
  } else if (frame.type === 'ACK') {
    children.push(type.node);
    const largest = varintNode(`${id}.largest`, 'Largest Acknowledged', b, type.next);
    const delay = varintNode(`${id}.delay`, 'ACK Delay', b, largest.next, ' (scaled by 2^ack_delay_exponent µs, §19.3)');
    const count = varintNode(`${id}.range-count`, 'ACK Range Count', b, delay.next);
    const firstRange = varintNode(`${id}.first-range`, 'First ACK Range', b, count.next);
    children.push(largest.node, delay.node, count.node, firstRange.node);
    if (firstRange.next < end)
      children.push({ id: `${id}.ranges`, label: 'Gap and ACK Range pairs, ECN counts', value: `${end - firstRange.next} bytes`, start: firstRange.next, end });
  } else {
    children.push(type.node);
    if (type.next < end) children.push({ id: `${id}.fields`, label: 'Fields', value: `${end - type.next} bytes`, start: type.next, end });
  }
  return { id, label: frame.type, value: describeQuicFrame(frame), start, end, children };
}

/** The HTTP/3 frames (or the stream type) whose bytes lie in this STREAM frame's data, mapped into the packet. */
function http3Inside(
  id: string,
  frame: Extract<QuicFrame, { type: 'STREAM' }>,
  dataStart: number,
  from: 'client' | 'server',
  streams: readonly QuicStreamView[],
): FieldNode[] {
  const stream = streams.find((s) => s.streamId === frame.streamId && s.from === from);
  if (!stream) return [];
  const lo = frame.offset;
  const hi = frame.offset + frame.data.length;
  const map = (o: number) => dataStart + Math.min(Math.max(o, lo), hi) - lo;
  const out: FieldNode[] = [];
  if (stream.typeEnd > 0 && lo < stream.typeEnd) {
    out.push({ id: `${id}.stream-type`, label: 'Stream Type', value: STREAM_KIND_LABEL[stream.kind], start: map(0), end: map(stream.typeEnd) });
  }
  if (stream.kind === 'qpack-encoder' || stream.kind === 'qpack-decoder') {
    const s = Math.max(lo, stream.typeEnd);
    if (s < hi)
      out.push({
        id: `${id}.qpack`,
        label: `QPACK ${stream.kind === 'qpack-encoder' ? 'encoder' : 'decoder'} instructions`,
        value: `${hi - s} bytes (see the QPACK tab)`,
        start: map(s),
        end: map(hi),
      });
  }
  stream.frames.forEach((f, i) => {
    if (f.end <= lo || f.start >= hi) return;
    const whole = f.start >= lo && f.end <= hi;
    out.push({
      id: `${id}.h3[${i}]`,
      label: `HTTP/3 ${f.frame.type}`,
      value: `${http3Summary(f.frame)}${whole ? '' : ` (stream bytes ${f.start}-${f.end}, part here)`}`,
      start: map(f.start),
      end: map(f.end),
      children: [
        {
          id: `${id}.h3[${i}].head`,
          label: 'Type and Length',
          value: `payload ${f.end - f.payloadStart} bytes (RFC 9114 §7.1)`,
          start: map(f.start),
          end: map(f.payloadStart),
        },
        {
          id: `${id}.h3[${i}].payload`,
          label: f.frame.type === 'HEADERS' ? 'Encoded field section (QPACK)' : 'Payload',
          value: `${f.end - f.payloadStart} bytes`,
          start: map(f.payloadStart),
          end: map(f.end),
        },
      ].filter((c) => c.end > c.start),
    });
  });
  return out;
}

export function http3Summary(frame: Http3Frame): string {
  switch (frame.type) {
    case 'HEADERS':
      return `field section ${frame.fieldSection.length} bytes`;
    case 'DATA':
      return `${frame.payload.length} bytes`;
    case 'SETTINGS':
      return frame.settings.map((s) => `0x${s.id.toString(16)}=${s.value}`).join(', ') || 'none';
    case 'GOAWAY':
      return `id ${frame.id}`;
    default:
      return `type 0x${frame.code.toString(16)}, ${frame.payload.length} bytes`;
  }
}

// --- the Initial as a capture shows it ----------------------------------------------------------------

export interface ProtectedInitial {
  readonly bytes: Uint8Array;
  readonly tree: FieldNode[];
  /** Removing the protection again (unprotectQuicInitial) gave back the traced packet's header and frames. */
  readonly roundTrips: boolean;
}

/**
 * An Initial protected with the keys the client's first Destination Connection ID gives (`originalDcid`,
 * default the packet's own: right for the client's first Initials; RFC 9001 §5.2-§5.4), as a capture shows it; then opened again, which must give back the traced header and frames. WebCrypto: async.
 */
export async function protectInitial(ref: QuicPacketRef, originalDcid?: Uint8Array): Promise<ProtectedInitial> {
  const d = decodePacket(ref);
  if (d.space !== 'initial') throw new Error('only Initial packets are protected with keys anyone can derive (RFC 9001 §5.2)');
  const b = ref.bytes;
  const pnStart = d.payloadStart - d.header.packetNumberLength;
  const lengthStart = lengthFieldStart(b);
  // Both sides' Initial keys come from the client's first DCID (§5.2); a server Initial's own DCID is the client's SCID.
  const dcid = originalDcid ?? d.header.dcid;
  const keys = await deriveQuicInitialKeys(dcid);
  const side = ref.event.from;
  const sealed = await protectQuicInitial(keys[side], {
    dcid: d.header.dcid,
    scid: d.header.scid ?? new Uint8Array(0),
    token: d.header.token ?? new Uint8Array(0),
    packetNumber: ref.event.packetNumber,
    packetNumberLength: d.header.packetNumberLength,
    lengthFieldLength: (pnStart - lengthStart) as 1 | 2 | 4 | 8,
    payload: b.subarray(d.payloadStart, d.payloadEnd),
  });
  const opened = await unprotectQuicInitial(sealed.packet, 0, { side, originalDcid: dcid });
  const back = opened.unprotectedDatagram;
  let same = back.length === b.length;
  for (let i = 0; same && i < d.payloadEnd; i++) same = back[i] === b[i];
  const p = sealed.packet;
  const tree: FieldNode[] = [
    {
      id: 'p.first-byte',
      label: 'Protected first byte',
      value: `0x${p[0]!.toString(16).padStart(2, '0')} (was 0x${b[0]!.toString(16).padStart(2, '0')}: low 4 bits XOR mask[0], RFC 9001 §5.4.1)`,
      start: 0,
      end: 1,
    },
    { id: 'p.clear', label: 'Version, connection IDs, token, Length', value: 'not protected', start: 1, end: pnStart },
    {
      id: 'p.pn',
      label: 'Protected Packet Number',
      value: `${hex(p, pnStart, d.payloadStart)} (was ${hex(b, pnStart, d.payloadStart)}: XOR mask[1..${d.header.packetNumberLength}])`,
      start: pnStart,
      end: d.payloadStart,
    },
    {
      id: 'p.payload',
      label: 'Encrypted payload (AEAD_AES_128_GCM)',
      value: `${d.payloadEnd - d.payloadStart} bytes; nonce ${hex(sealed.nonce, 0, sealed.nonce.length)}`,
      start: d.payloadStart,
      end: d.payloadEnd,
      children: [
        {
          id: 'p.sample',
          label: 'Header protection sample',
          value: `${hex(sealed.sample, 0, sealed.sample.length)} (16 bytes from packet number + 4, §5.4.2) → mask ${hex(sealed.mask, 0, sealed.mask.length)}`,
          start: pnStart + 4,
          end: pnStart + 20,
        },
      ],
    },
    { id: 'p.tag', label: 'AEAD tag', value: hex(p, d.payloadEnd, p.length), start: d.payloadEnd, end: p.length },
  ];
  return { bytes: p, tree, roundTrips: same };
}

/** Where the Length varint of the long header in `b` starts (RFC 9000 §17.2: after the connection IDs and, in an Initial, the token). */
function lengthFieldStart(b: Uint8Array): number {
  let pos = 6 + b[5]!;
  pos += 1 + b[pos]!;
  if (((b[0]! >> 4) & 3) === 0) {
    const t = readQuicVarint(b, pos);
    if (t.kind !== 'ok') throw new Error('the Initial ends inside its Token Length');
    pos = t.next + t.value;
  }
  return pos;
}
