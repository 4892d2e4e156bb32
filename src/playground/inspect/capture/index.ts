/**
 * The capture reader's surface for the inspector: a pcap or pcapng file in, what the page shows out. HTTP/1
 * and h2c conversations are read by the same engines as pasted ones, at their captured times; TLS
 * connections show their handshake (tls.ts) and, given an NSS key log (SSLKEYLOGFILE), are decrypted and
 * read as the HTTP their ALPN names.
 */
import type { Recording } from '../../recording/model';
import type { H2ConnectionReading } from '../h2-connection';
import { inspectQuic, type QuicInspection, quicHeaderNotes } from '../quic';
import { type Segment, verdicts } from '../http1';
import type { ReplayExchange } from '../replay';
import { recordingOf } from '../to-recording';
import { countOf } from '../words';
import { type CaptureConnection, type CapturePackets, readCapturePackets } from './read';
import { captureTrace, type Conversation } from './recording';
import { flagNames } from './packet';
import { decryptTls, parseKeyLog, readTlsConnection, type TlsReading } from './tls';

export { readCapturePackets } from './read';
export { isKeyLog, parseKeyLog } from './tls';

/** One connection as the page lists it (plain data: it crosses from the worker by structured clone). */
export interface CaptureConnectionSummary {
  readonly id: string;
  readonly label: string;
  readonly protocol: string;
  readonly start: number;
  readonly bytes: { readonly client: number; readonly server: number };
  readonly closed: readonly string[];
  readonly segments: readonly {
    readonly number: number;
    readonly time: number;
    readonly from: 'client' | 'server';
    readonly flags: string;
    readonly seq: number;
    readonly ack?: number;
    readonly length: number;
    readonly notes: readonly string[];
  }[];
  /** TLS: the records each side sent, and what decryption gave. */
  readonly tls?: TlsReading;
}

export interface CaptureSummary {
  readonly format: 'pcap' | 'pcapng';
  readonly precision: string;
  readonly packets: number;
  readonly startedAt?: string;
  readonly duration: number;
  readonly linkTypes: readonly string[];
  readonly connections: readonly CaptureConnectionSummary[];
  readonly skipped: Readonly<Record<string, number>>;
  /** UDP datagrams of the first UDP flow, read as QUIC (quic.ts). */
  readonly quicDatagrams: number;
}

export interface CaptureInspection {
  readonly capture: CaptureSummary;
  readonly recording?: Recording;
  readonly problems: { message: string; where?: string }[];
  readonly notes: string[];
  /** The HTTP/1 conversations' writes, for the caller's verdicts and Replay. */
  readonly http1: readonly { readonly label: string; readonly segments: readonly Segment[] }[];
  readonly h2: readonly { readonly label: string; readonly reading: H2ConnectionReading }[];
  /** QUIC: the first UDP flow's datagrams, their Initials opened (readCapture only: WebCrypto is asynchronous). */
  readonly quic?: QuicInspection;
}

export interface ReadCaptureOptions {
  /** An NSS key log (SSLKEYLOGFILE): with it, TLS 1.3 connections using AES-GCM are decrypted. */
  readonly keyLog?: string;
}

/** The file as packets and connections, TLS decrypted with the key log if one is given (WebCrypto: async). */
export async function readCapture(bytes: Uint8Array, options: ReadCaptureOptions = {}): Promise<CaptureInspection> {
  const packets = readCapturePackets(bytes);
  const keys = options.keyLog ? parseKeyLog(options.keyLog) : undefined;
  const tls = new Map<string, TlsReading>();
  for (const c of packets.connections) {
    if (c.protocol !== 'tls') continue;
    const reading = readTlsConnection(c.chunks);
    tls.set(c.id, keys ? await decryptTls(c.chunks, reading, keys) : reading);
  }
  const text = quicText(packets);
  const got = inspectPackets(packets, tls, options.keyLog !== undefined);
  if (text === undefined) return got;
  const quic = await inspectQuic(text);
  return { ...got, quic, notes: [...got.notes, ...quic.notes], problems: [...got.problems, ...quic.problems] };
}

/**
 * The datagrams of the capture's first UDP flow (both directions between its two endpoints) as quic.ts takes
 * pasted ones: hex, one datagram a paragraph. Its first client Initial's DCID opens both sides' Initials.
 */
function quicText(packets: CapturePackets): string | undefined {
  const first = packets.datagrams[0];
  if (!first) return undefined;
  const ends = new Set([`${first.source}|${first.sourcePort}`, `${first.destination}|${first.destinationPort}`]);
  const flow = packets.datagrams.filter((d) => ends.has(`${d.source}|${d.sourcePort}`) && ends.has(`${d.destination}|${d.destinationPort}`));
  return flow.map((d) => Array.from(d.payload, (b) => b.toString(16).padStart(2, '0')).join('')).join('\n\n');
}

/** The same without decryption, for a caller that cannot wait (TLS connections show their handshake only). */
export function readCaptureNow(bytes: Uint8Array): CaptureInspection {
  const packets = readCapturePackets(bytes);
  const tls = new Map<string, TlsReading>();
  for (const c of packets.connections) if (c.protocol === 'tls') tls.set(c.id, readTlsConnection(c.chunks));
  const got = inspectPackets(packets, tls, false);
  const text = quicText(packets);
  if (text === undefined) return got;
  // Headers only here: opening the Initials waits for readCapture.
  const quic = quicHeaderNotes(text);
  return { ...got, notes: [...got.notes, ...quic.notes], problems: [...got.problems, ...quic.problems] };
}

function inspectPackets(packets: CapturePackets, tls: ReadonlyMap<string, TlsReading>, keyLogGiven: boolean): CaptureInspection {
  const problems: { message: string; where?: string }[] = [...packets.problems];
  const notes: string[] = [];
  const conversations: Conversation[] = [];
  const byId = new Map<string, CaptureConnection>();
  for (const c of packets.connections) {
    byId.set(c.id, c);
    for (const p of c.problems) problems.push({ message: p, where: `connection ${c.id} (${c.label})` });
    const address = c.label.split(' -> ')[1]!;
    if (c.protocol === 'http1' || c.protocol === 'h2c')
      conversations.push({
        connectionId: c.id,
        protocol: c.protocol === 'h2c' ? 'h2' : 'http1',
        chunks: c.chunks,
        start: c.start,
        address,
        tcp: c,
        tcpCarriesChunks: true,
      });
    const t = tls.get(c.id);
    if (t) {
      for (const p of t.problems) problems.push({ message: p, where: `connection ${c.id} (${c.label}), TLS` });
      notes.push(`${c.id} (${c.label}) is TLS: ${t.summary}`);
      if (t.plaintext && (t.alpn === 'h2' || t.alpn === 'http/1.1' || t.alpn === undefined))
        conversations.push({ connectionId: c.id, protocol: t.alpn === 'h2' ? 'h2' : 'http1', chunks: t.plaintext, start: c.start, address, tcp: c });
    }
    if (c.protocol === 'other')
      notes.push(`${c.id} (${c.label}) carries ${countOf(c.bytes.client + c.bytes.server, 'byte')} that are neither HTTP/1, h2c nor TLS: not read.`);
  }
  const { events, readings } = captureTrace(conversations);
  const http1 = readings.filter((r) => r.segments).map((r) => ({ label: byId.get(r.conversation.connectionId)!.label, segments: r.segments! }));
  const h2 = readings.filter((r) => r.h2).map((r) => ({ label: byId.get(r.conversation.connectionId)!.label, reading: r.h2! }));
  for (const { label, segments } of http1) {
    for (const v of verdicts(segments).filter((x) => x.strict && x.error))
      problems.push({
        message: `${v.from === 'client' ? 'Requests' : 'Responses'}: ${v.error!.message} (${v.error!.code})`,
        where: `${label}, line ${v.error!.line}, column ${v.error!.column} (byte ${v.error!.offset} of the ${v.from}'s stream)`,
      });
  }
  for (const { label, reading } of h2) {
    for (const side of ['client', 'server'] as const) {
      const p = reading[side].problem;
      if (p) problems.push({ message: `The ${side}'s bytes: ${p.message}`, where: `${label}, byte ${p.offset} of the ${side}'s stream` });
    }
    for (const f of reading.findings) problems.push({ message: f.message, where: `${label}${f.frame ? `, frame ${f.frame}` : ''}` });
  }
  const skipped = Object.entries(packets.skipped);
  notes.unshift(
    `A ${packets.format} capture: ${countOf(packets.packets, 'packet')} (${packets.linkTypes.join(', ') || 'no link type'}) over ${packets.duration.toFixed(3)} ms${packets.startedAt ? `, from ${packets.startedAt}` : ''}, timestamps in ${packets.precision}. ${countOf(packets.connections.length, 'TCP connection')}, each reassembled both ways by sequence number (RFC 9293 §3.4): retransmitted bytes are read once, out-of-order segments wait for the gap before them.${skipped.length ? ` Not read: ${skipped.map(([what, n]) => `${n} × ${what}`).join(', ')}.` : ''}`,
    "Times are the capture's own, in ms after its first packet; an arrow is drawn arriving when the capture saw it, since one capture point does not show how long it took to cross.",
  );
  if ([...tls.values()].some((t) => !t.plaintext) && !keyLogGiven)
    notes.push(
      'TLS application data is encrypted. To read it, save the key log of the same run (SSLKEYLOGFILE=keys.log curl ..., or a browser started with SSLKEYLOGFILE) and give it with the capture: TLS 1.3 and 1.2 with AES-GCM or ChaCha20-Poly1305 are decrypted here, in the browser.',
    );
  const versions = new Set(conversations.map((c) => c.protocol));
  const capture: CaptureSummary = {
    format: packets.format,
    precision: packets.precision,
    packets: packets.packets,
    ...(packets.startedAt ? { startedAt: packets.startedAt } : {}),
    duration: packets.duration,
    linkTypes: packets.linkTypes,
    skipped: packets.skipped,
    quicDatagrams: quicText(packets)?.split('\n\n').length ?? 0,
    connections: packets.connections.map((c) => ({
      id: c.id,
      label: c.label,
      protocol: c.protocol === 'tls' ? `TLS${tls.get(c.id)?.alpn ? ` (${tls.get(c.id)!.alpn})` : ''}` : c.protocol,
      start: c.start,
      bytes: c.bytes,
      closed: c.closed.map((x) => `${x.how} from the ${x.by}`),
      segments: c.segments.map((s) => ({
        number: s.number,
        time: s.time,
        from: s.from,
        flags: flagNames(s.flags),
        seq: s.seq,
        ...(s.ack !== undefined ? { ack: s.ack } : {}),
        length: s.length,
        notes: s.notes,
      })),
      ...(tls.get(c.id) ? { tls: tls.get(c.id)! } : {}),
    })),
  };
  if (packets.connections.length === 0 && packets.datagrams.length === 0)
    problems.push({ message: 'The capture holds no TCP connection and no UDP datagram: there is nothing HTTP or QUIC to read.' });
  return {
    capture,
    ...(events.length > 0
      ? { recording: recordingOf(`Capture (${packets.format})`, events, { httpVersion: versions.has('h2') && !versions.has('http1') ? '2' : '1.1' }) }
      : {}),
    problems,
    notes,
    http1,
    h2,
  };
}

/** The requests of an HTTP/2 connection the client opened, each with the response that answered it, for Replay. */
export function h2Exchanges(reading: H2ConnectionReading): ReplayExchange[] {
  const decoder = new TextDecoder();
  const field = (fields: readonly { name: string; value: string }[] | undefined, name: string) => fields?.find((f) => f.name === name)?.value;
  const regular = (fields: readonly { name: string; value: string }[] | undefined) => (fields ?? []).filter((f) => !f.name.startsWith(':'));
  return reading.streams
    .filter((s) => s.request && s.openedBy === 'client')
    .map((s) => ({
      method: field(s.request, ':method') ?? 'GET',
      path: field(s.request, ':path') ?? '/',
      requestHeaders: regular(s.request),
      requestBody: decoder.decode(s.requestBody),
      // 502 (RFC 9110 §15.6.3): what a gateway says when the server's answer is missing.
      status: s.status ?? 502,
      responseHeaders: regular(s.response),
      responseBody: s.status !== undefined ? decoder.decode(s.responseBody) : 'The capture holds no response to this request.',
    }));
}
