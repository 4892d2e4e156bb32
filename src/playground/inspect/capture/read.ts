/**
 * A capture file read down to conversations: packets (files.ts), each decoded to TCP (packet.ts), each
 * connection reassembled both ways (tcp.ts), and each connection's bytes named by how they start: the
 * HTTP/2 connection preface (h2c, RFC 9113 §3.4), an HTTP/1 request line (RFC 9112 §3), or a TLS handshake
 * record (RFC 8446 §5.1; tls.ts reads it, and decrypts TLS 1.3 with a key log). What the page draws is made
 * from these by recording.ts.
 */
import { readCaptureFile } from './files';
import { decodePacket, LINK_TYPES } from './packet';
import { type Side, type StreamChunk, TcpReassembler, type TcpConnection } from './tcp';

export type ConnectionProtocol = 'http1' | 'h2c' | 'tls' | 'other' | 'empty';

export interface CaptureConnection extends TcpConnection {
  readonly protocol: ConnectionProtocol;
  /** "127.0.0.1:52546 -> 127.0.0.1:18501" (IPv6 addresses in brackets). */
  readonly label: string;
  /** ms since the capture's first packet. */
  readonly start: number;
}

export interface UdpDatagram {
  readonly number: number;
  /** ms since the capture's first packet. */
  readonly time: number;
  readonly source: string;
  readonly sourcePort: number;
  readonly destination: string;
  readonly destinationPort: number;
  readonly payload: Uint8Array;
}

export interface CapturePackets {
  readonly format: 'pcap' | 'pcapng';
  readonly precision: string;
  readonly packets: number;
  /** The first packet's time, ISO 8601 UTC with the file's precision; absent without packets. */
  readonly startedAt?: string;
  /** ms from the first packet to the last. */
  readonly duration: number;
  readonly linkTypes: readonly string[];
  readonly connections: readonly CaptureConnection[];
  /** UDP datagrams in capture order, for a QUIC reader (RFC 9000 runs over UDP); they are not read here. */
  readonly datagrams: readonly UdpDatagram[];
  /** Packets not read as TCP, counted by what they are ("UDP (QUIC?) port 443", "ARP"). */
  readonly skipped: Readonly<Record<string, number>>;
  readonly problems: readonly { readonly message: string; readonly where?: string }[];
  readonly remarks: readonly string[];
}

const PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';

export function readCapturePackets(bytes: Uint8Array): CapturePackets {
  const file = readCaptureFile(bytes);
  const tcp = new TcpReassembler();
  const skipped: Record<string, number> = {};
  const datagrams: UdpDatagram[] = [];
  const links = new Set<string>();
  let first: { seconds: number; nanoseconds: number } | undefined;
  let last = 0;
  for (const p of file.packets) {
    links.add(LINK_TYPES[p.linkType] ?? `link type ${p.linkType}`);
    first ??= p;
    // ms since the first packet, from whole seconds and nanoseconds apart, so no precision is lost to 1970.
    const time = (p.seconds - first.seconds) * 1000 + (p.nanoseconds - first.nanoseconds) / 1e6;
    last = Math.max(last, time);
    const d = decodePacket(p.data, p.linkType, p.originalLength);
    if (d.kind === 'tcp') tcp.add(p, time, d);
    else {
      if (d.kind === 'udp')
        datagrams.push({
          number: p.number,
          time,
          source: d.source,
          sourcePort: d.sourcePort,
          destination: d.destination,
          destinationPort: d.destinationPort,
          payload: d.payload,
        });
      if (d.kind !== 'udp') skipped[d.what] = (skipped[d.what] ?? 0) + 1;
    }
  }
  const problems = file.problem ? [{ message: file.problem.message, where: `byte ${file.problem.offset} of the file` }] : [];
  const connections = tcp.connections().map((c) => {
    const label = `${endpoint(c.client)} -> ${endpoint(c.server)}`;
    return { ...c, protocol: protocolOf(c.chunks), label, start: c.segments[0]?.time ?? 0 };
  });
  return {
    format: file.format,
    precision: file.precision,
    packets: file.packets.length,
    ...(first ? { startedAt: isoTime(first.seconds, first.nanoseconds, file.precision) } : {}),
    duration: last,
    linkTypes: [...links],
    connections,
    datagrams,
    skipped,
    problems,
    remarks: file.remarks,
  };
}

const endpoint = (e: { address: string; port: number }) => (e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`);

function isoTime(seconds: number, nanoseconds: number, precision: string): string {
  const whole = new Date(seconds * 1000).toISOString().slice(0, 19);
  const digits = precision === 'nanoseconds' ? 9 : 6;
  return `${whole}.${String(nanoseconds).padStart(9, '0').slice(0, digits)}Z`;
}

/** How the client's first bytes start (the server's, when the client sent none). */
export function protocolOf(chunks: Readonly<Record<Side, readonly StreamChunk[]>>): ConnectionProtocol {
  const head = (side: Side) => {
    const out: number[] = [];
    for (const c of chunks[side]) {
      for (const b of c.bytes) {
        out.push(b);
        if (out.length >= PREFACE.length) return out;
      }
    }
    return out;
  };
  const client = head('client');
  const server = head('server');
  const bytes = client.length > 0 ? client : server;
  if (bytes.length === 0) return 'empty';
  const text = String.fromCharCode(...bytes);
  if (PREFACE.startsWith(text) || text.startsWith(PREFACE)) return 'h2c';
  // A TLS record: content type handshake (22), legacy version 3.x (RFC 8446 §5.1).
  if (bytes[0] === 22 && bytes[1] === 3) return 'tls';
  if (/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S/.test(text) || text.startsWith('HTTP/1.')) return 'http1';
  return 'other';
}
