/**
 * The inspector's one entry point: input in, everything the page shows out, as plain data (it crosses from the
 * worker to the page by structured clone). Nothing here touches the DOM or the network. Here: detection, whole
 * packets and capture files, HARs; each other format's reading has its own file.
 */
import { type CaptureInspection, h2Exchanges, readCapture, readCaptureNow } from './capture';
import { detect, HEX_FORM_LABELS, packetReason } from './detect';
import { countOf } from './words';
import { startsWithPreface } from './h2';
import { h2Sections } from './h2-connection';
import { readHar, harEvents, versionLabel } from './har';
import { type HexForm, parseHex } from './hex';
import { describePacket, endpoint, type PacketReading, readPacket, type TcpPacket } from './packet';
import { directions, mergeWrites, type Segment } from './http1';
import type { ReplayExchange } from './replay';
import { inspectQuic, looksLikeQuicInitial, quicHeaderNotes } from './quic';
import { readHttp3Sections } from './quic-h3';
import { recordingOf } from './to-recording';
import { type Body, type InspectInput, type InspectResult, safePath } from './inspect-result';
import { conversation, http1, http1Exchanges } from './inspect-http1';
import { curl } from './inspect-curl';
import { h2, hpack } from './inspect-h2';

// Each format's reading has a file of its own (inspect-http1.ts, inspect-curl.ts, inspect-h2.ts); the types are
// in inspect-result.ts. Exported from here as before.
export type { H2SideSummary, InspectInput, InspectResult, Problem } from './inspect-result';
export { hpackBlockTexts } from './inspect-h2';

export function inspect(input: InspectInput): InspectResult {
  const byPacket = !input.format || input.format === 'h2' || input.format === 'http1';
  const packets = byPacket ? packetsIn(input.text) : undefined;
  if (packets) return inspectPackets(input, packets);
  const packet = byPacket ? packetIn(input.text) : undefined;
  if (packet) return inspectPacket(input, packet.reading, packet.form);
  const detection = input.format
    ? { format: input.format, reason: 'Chosen by you.' }
    : !input.bytes && h2Sections(input.text)
      ? {
          format: 'h2' as const,
          reason: 'It holds an HTTP/2 connection\'s two sides: hex under "client:" and "server:", or two hex blocks, one starting with the connection preface.',
        }
      : detect(input.text, input.bytes);
  const base = { detected: !input.format, reason: detection.reason };
  if (detection.format === null) return { ...base, format: null, problems: [{ message: detection.reason }], notes: [] };
  try {
    switch (detection.format) {
      case 'http1':
        return { ...base, ...http1(input) };
      case 'curl':
        return { ...base, ...curl(input) };
      case 'h2':
        return { ...base, ...h2(input) };
      case 'hpack':
        return { ...base, ...hpack(input) };
      case 'har':
        return { ...base, ...har(input) };
      case 'pcap':
        return { ...base, ...pcap(input) };
      case 'quic':
        return { ...base, format: 'quic', ...quicHeaderNotes(input.text) };
      case 'h3':
        return { ...base, format: 'h3', ...readHttp3Sections(input.text) };
    }
  } catch (error) {
    // A reader bug must not leave a blank panel: say what failed.
    return {
      ...base,
      format: detection.format,
      problems: [{ message: `The inspector failed on this input: ${error instanceof Error ? error.message : String(error)}` }],
      notes: [],
    };
  }
}

/** Hex that reads as one whole captured packet (packet.ts): Wireshark's "Copy as Hex Stream" of a frame. */
function packetIn(text: string): { reading: PacketReading; form: HexForm } | undefined {
  const trimmed = text.trim();
  if (trimmed.length > 200_000 || !/^[0-9a-fA-F]/.test(trimmed)) return undefined;
  const hex = parseHex(trimmed);
  if (!hex.ok) return undefined;
  const reading = readPacket(hex.bytes);
  return reading ? { reading, form: hex.form } : undefined;
}

/** Several whole packets, one hex stream a line (Wireshark's "Copy as Hex Stream", packet after packet). */
function packetsIn(text: string): TcpPacket[] | undefined {
  if (text.length > 2_000_000) return undefined;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length < 2 || !lines.every((l) => /^[0-9a-fA-F]+$/.test(l))) return undefined;
  const out: TcpPacket[] = [];
  for (const line of lines) {
    const hex = parseHex(line, 'stream');
    const reading = hex.ok ? readPacket(hex.bytes) : undefined;
    if (!reading?.ok) return undefined;
    out.push(reading.packet);
  }
  return out;
}

/**
 * A TCP connection from its packets, as copied one by one in capture order: each side's payloads in that
 * order (a segment whose sequence number and length were seen already is a retransmission, read once; RFC 9293
 * §3.4), the client being the side that sent the SYN, or else the side whose bytes start a request, then read
 * as one conversation. Reordered segments are not put back in order here: a capture file (capture/) is.
 */
function inspectPackets(input: InspectInput, packets: readonly TcpPacket[]): InspectResult {
  const key = (p: TcpPacket) => [endpoint(p.source), endpoint(p.destination)].sort().join(' ');
  const first = key(packets[0]!);
  const mine = packets.filter((p) => key(p) === first);
  const [a, b] = first.split(' ') as [string, string];
  const starts = (bytes: Uint8Array) => /^([A-Z]{3,10} \S|PRI \* HTTP\/2)/.test(String.fromCharCode(...bytes.subarray(0, 24)));
  const syn = mine.find((p) => p.flags.includes('SYN') && !p.flags.includes('ACK'));
  const opener = mine.find((p) => p.payload.length > 0 && starts(p.payload));
  const client = syn ? endpoint(syn.source) : opener ? endpoint(opener.source) : a;
  const server = client === a ? b : a;
  const seen = new Set<string>();
  let repeats = 0;
  const segments: Segment[] = [];
  for (const p of mine) {
    if (p.payload.length === 0) continue;
    const id = `${endpoint(p.source)} ${p.seq} ${p.payload.length}`;
    if (seen.has(id)) {
      repeats++;
      continue;
    }
    seen.add(id);
    segments.push({ from: endpoint(p.source) === client ? 'client' : 'server', bytes: p.payload });
  }
  const flags = mine.filter((p) => p.flags.some((f) => f === 'SYN' || f === 'FIN' || f === 'RST')).map((p) => `${endpoint(p.source)} ${p.flags.join('+')}`);
  const said = [
    `${countOf(packets.length, 'whole packet')} (${packets[0]!.link}, IPv${packets[0]!.ip}, TCP), one a line; ${countOf(mine.length, 'packet')} of the connection between ${client} (the client${syn ? ', it sent the SYN' : ''}) and ${server} (the server), ${countOf(segments.length, 'payload')} read in the order given${repeats > 0 ? `, ${countOf(repeats, 'retransmission')} read once` : ''}.${packets.length > mine.length ? ` ${countOf(packets.length - mine.length, 'packet')} of other connections set aside.` : ''}${flags.length > 0 ? ` Connection flags: ${flags.join(', ')}.` : ''}`,
  ];
  const base = {
    detected: !input.format,
    reason: `It is one whole packet a line, as Wireshark's "Copy as Hex Stream" gives each: ${countOf(packets.length, 'packet')}.`,
  };
  if (segments.length === 0)
    return { ...base, format: null, problems: [{ message: `${said[0]} None carries a TCP payload: there are no HTTP bytes to read.` }], notes: [] };
  const clientBytes = directions(segments).client;
  if (startsWithPreface(clientBytes) || input.format === 'h2') {
    const hex = (bytes: Uint8Array) => [...bytes].map((x) => x.toString(16).padStart(2, '0')).join('');
    const { bytes: _file, ...rest } = input;
    const inner = inspect({
      ...rest,
      format: null,
      text: mergeWrites(segments)
        .map((s) => `${s.from}: ${hex(s.bytes)}`)
        .join('\n'),
    });
    return { ...inner, ...base, notes: [...said, ...inner.notes] };
  }
  return { ...base, ...conversation(mergeWrites(segments), said) };
}

/** One packet: its TCP payload read as what it holds, with the connection and direction said first. */
function inspectPacket(input: InspectInput, reading: PacketReading, form: HexForm): InspectResult {
  const base = { detected: !input.format, notes: [] };
  // A whole UDP packet whose payload is a QUIC Initial: quic.ts sets the headers aside and reads the datagram.
  if (!reading.ok && reading.udp && looksLikeQuicInitial(reading.udp.payload)) {
    const reason = `It is ${HEX_FORM_LABELS[form]} of a whole packet (${reading.udp.layers}) whose payload starts with a QUIC version 1 Initial packet (RFC 9000 §17.2.2).`;
    return { ...inspect({ ...input, format: 'quic' }), detected: !input.format, reason };
  }
  if (!reading.ok) return { ...base, format: null, reason: reading.message, problems: [{ message: reading.message }] };
  const p = reading.packet;
  if (p.payload.length === 0) {
    const message = `This packet carries no TCP payload (flags ${p.flags.join(', ')}): it is part of the connection from ${endpoint(p.source)} to ${endpoint(p.destination)} (its handshake, an acknowledgment or its close), with no HTTP bytes to read. Copy a packet that Wireshark shows with a non-zero "TCP payload".`;
    return { ...base, format: null, reason: message, problems: [{ message }] };
  }
  // The payload as hex, read as pasted hex is (a dropped file's bytes are its hex text, not the payload).
  const { bytes: _file, ...rest } = input;
  const inner = inspect({ ...rest, text: [...p.payload].map((b) => b.toString(16).padStart(2, '0')).join('') });
  const sender = inner.h2?.sender ?? inner.verdicts?.[0]?.from;
  const direction = sender
    ? ` The payload is the ${sender}'s: ${endpoint(p.source)} is the ${sender}, ${endpoint(p.destination)} the ${sender === 'client' ? 'server' : 'client'}.`
    : '';
  return {
    ...inner,
    reason: input.format ? inner.reason : packetReason(form, `${p.link}, IPv${p.ip}, TCP`, p.payload.length, inner.reason),
    notes: [`${describePacket(p)}${direction}`, ...inner.notes],
  };
}

/**
 * pcap and pcapng files (issue #30 item 12): capture/ reads the packets, reassembles each TCP connection both
 * ways and reads HTTP/1 and h2c with the readers below, at the capture's times. TLS shows its handshake; with
 * a key log (`keyLog`), `inspectAsync` decrypts TLS 1.3 (WebCrypto is asynchronous).
 */
function pcap(input: InspectInput, got: CaptureInspection = readCaptureNow(captureBytes(input))): Body {
  const exchanges = [...got.http1.flatMap((c) => http1Exchanges([...c.segments])), ...got.h2.flatMap((c) => h2Exchanges(c.reading))];
  return {
    format: 'pcap',
    ...(got.recording ? { recording: got.recording } : {}),
    problems: got.problems,
    notes: got.notes,
    capture: got.capture,
    ...(got.quic ? { quic: got.quic } : {}),
    ...(exchanges.length > 0
      ? { replay: { from: 'a capture file', exchanges } }
      : { noReplay: 'Replay is not offered: the capture holds no HTTP/1 or HTTP/2 exchange that could be read (TLS needs its key log).' }),
  };
}

/** A dropped capture's bytes, or a pasted/linked one carried one character per byte (latin1). */
function captureBytes(input: InspectInput): Uint8Array {
  return input.bytes ?? Uint8Array.from(input.text, (c) => c.charCodeAt(0) & 0xff);
}

/** `inspect`, and for a capture given with a key log, its TLS 1.3 records decrypted first. */
export async function inspectAsync(input: InspectInput): Promise<InspectResult> {
  const result = inspect(input);
  if (result.format === 'quic') {
    // The Initials' keys come from the DCID (RFC 9001 §5.2); opening them is WebCrypto's, so it is asynchronous.
    const quic = await inspectQuic(input.text);
    return { ...result, quic, problems: quic.problems, notes: quic.notes };
  }
  // A capture needs the asynchronous reading for its key log, or to open the QUIC Initials it holds.
  if (result.format !== 'pcap' || (input.keyLog === undefined && !result.capture?.quicDatagrams)) return result;
  try {
    const got = await readCapture(captureBytes(input), { keyLog: input.keyLog });
    return { detected: result.detected, reason: result.reason, ...pcap(input, got) };
  } catch (error) {
    return {
      ...result,
      problems: [...result.problems, { message: `Decrypting with the key log failed: ${error instanceof Error ? error.message : String(error)}` }],
    };
  }
}

function har(input: InspectInput): Body {
  const reading = readHar(input.text);
  if (!reading.ok) {
    return {
      format: 'har',
      problems: [{ message: reading.message, ...(reading.line ? { where: `line ${reading.line}, column ${reading.column}` } : {}) }],
      notes: [],
      har: { creator: '', entries: 0, versions: [], checks: reading.checks },
    };
  }
  const events = harEvents(reading.entries);
  const versions = [...new Set(reading.entries.map((e) => versionLabel(e.httpVersion)))];
  const exchanges: ReplayExchange[] = reading.entries.map((e) => ({
    method: e.method,
    path: safePath(e.url),
    requestHeaders: e.requestHeaders,
    requestBody: e.requestBody,
    status: e.status,
    responseHeaders: e.responseHeaders,
    responseBody: e.responseText,
  }));
  return {
    format: 'har',
    ...(events.length > 0 ? { recording: recordingOf(`HAR from ${reading.creator}`, events, { bytes: 'rebuilt' }) } : {}),
    problems: reading.entries.length === 0 ? [{ message: 'The HAR has no entries: the tool recorded no requests.' }] : [],
    notes: [
      `${reading.entries.length} ${reading.entries.length === 1 ? 'entry' : 'entries'} recorded by ${reading.creator}; times are the HAR's own, in ms after the first request started.`,
    ],
    har: { creator: reading.creator, entries: reading.entries.length, versions, checks: reading.checks },
    replay: { from: `a HAR recorded by ${reading.creator}`, exchanges },
  };
}
