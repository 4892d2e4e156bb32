/**
 * The inspector's one entry point: input in, everything the page shows out, as plain data (it crosses from the
 * worker to the page by structured clone). Nothing here touches the DOM or the network.
 */
import type { Recording } from '../recording/model';
import { type CaptureInspection, type CaptureSummary, h2Exchanges, readCapture, readCaptureNow } from './capture';
import { curlMessages, parseCurl, type CurlMessage, type CurlSegment, type CurlTranscript } from './curl';
import { detect, HEX_FORM_LABELS, type Format, packetReason } from './detect';
import { countOf } from './words';
import { pseudoHeaderBreaches, readBlocks, readFrames, startsWithPreface, type FlowRow, type Sender } from './h2';
import { type H2Section, h2Sections, readH2Connection, splitDirections } from './h2-connection';
import { readHar, harEvents, versionLabel, type HarCheck } from './har';
import { type HexForm, hexForm, parseHex } from './hex';
import { describePacket, endpoint, type PacketReading, readPacket, type TcpPacket } from './packet';
import { directions, type Located, locate, machineSteps, mergeWrites, splitConversation, type Restored, verdicts, type Segment, type Verdict } from './http1';
import type { ReplayExchange } from './replay';
import { inspectQuic, looksLikeQuicInitial, type QuicInspection, quicHeaderNotes } from './quic';
import { readHttp3Sections } from './quic-h3';
import { clockNote, looksLikeTrace, parseTrace } from './trace';
import { h2ConnectionEvents, h2Events, http1Events, recordingOf, STEP_MS } from './to-recording';
import { Http1Reader } from 'roundtrip/wire';

export interface InspectInput {
  readonly text: string;
  /** A dropped file's bytes; absent for pasted text. */
  readonly bytes?: Uint8Array;
  /** null: detect. */
  readonly format?: Format | null;
  /** Restore CR LF in HTTP/1 heads of pasted text (a text box drops the CR). */
  readonly restoreCrlf?: boolean;
  /** HPACK: SETTINGS_HEADER_TABLE_SIZE (the largest dynamic table the encoder may use). */
  readonly tableSize?: number;
  /** HTTP/2: who sent the frames; null: work it out. */
  readonly sender?: Sender | null;
  /** pcap/pcapng: an NSS key log (SSLKEYLOGFILE) given with the capture; read by inspectAsync. */
  readonly keyLog?: string;
}

/** One side of an HTTP/2 connection: its frames and its DATA against the windows its peer gave. */
export interface H2SideSummary {
  readonly preface: boolean;
  readonly frames: number;
  readonly blocks: number;
  readonly flow: readonly FlowRow[];
}

export interface Problem {
  /** What went wrong and why, in words. */
  readonly message: string;
  /** Where: 'line 3, column 7', 'byte 40 (frame 3)'. */
  readonly where?: string;
}

export interface InspectResult {
  readonly format: Format | null;
  readonly detected: boolean;
  /** Why that format: the detector's reason, or 'chosen'. */
  readonly reason: string;
  readonly recording?: Recording;
  readonly problems: readonly Problem[];
  readonly notes: readonly string[];
  readonly verdicts?: readonly Verdict[];
  readonly h2?: { readonly sender: Sender; readonly preface: boolean; readonly frames: number; readonly blocks: number; readonly flow: readonly FlowRow[] };
  /** HTTP/2 with both sides (h2-connection.ts): each side's frames and flow control, and the streams matched by id. */
  readonly h2Connection?: {
    readonly timed: boolean;
    readonly client: H2SideSummary;
    readonly server: H2SideSummary;
    readonly streams: readonly {
      readonly streamId: number;
      readonly method?: string;
      readonly path?: string;
      readonly status?: number;
      readonly requestData: number;
      readonly responseData: number;
      /** Each endpoint's state of the stream at the end (RFC 9113 §5.1). */
      readonly states: Readonly<Record<Sender, string>>;
    }[];
  };
  readonly hpack?: {
    /** Every block's fields, in order. */
    readonly fields: readonly { name: string; value: string }[];
    /** Each pasted block's fields (one entry for a single block). */
    readonly blocks: readonly (readonly { name: string; value: string }[])[];
    readonly table: { size: number; maxSize: number; entries: readonly { name: string; value: string; inserted: number }[]; evicted: number };
  };
  readonly har?: { readonly creator: string; readonly entries: number; readonly versions: readonly string[]; readonly checks: readonly HarCheck[] };
  readonly replay?: { readonly from: string; readonly exchanges: readonly ReplayExchange[] };
  /** Why the input cannot be replayed, when the page would otherwise just not offer it. */
  readonly noReplay?: string;
  /** curl -v over HTTP/2: each message's fields, as curl listed or printed them. */
  readonly curl?: { readonly version: string; readonly messages: readonly CurlMessage[] };
  /** pcap/pcapng: packets, TCP connections with their segments, TLS records (capture/index.ts). */
  readonly capture?: CaptureSummary;
  /** QUIC datagrams in hex (quic.ts): each packet's header, the Initials opened (by inspectAsync) and the TLS Hellos in them. */
  readonly quic?: QuicInspection;
}

const utf8 = new TextEncoder();

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

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

type Body = Omit<InspectResult, 'detected' | 'reason'>;

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

/** HTTP/1 input as bytes: hex of HTTP/1 text is read as hex, a file as its bytes, pasted text as UTF-8. */
function http1Bytes(input: InspectInput): { bytes: Uint8Array; restore: boolean; note?: string } {
  if (input.bytes) {
    // A file of hex (saved from Wireshark or xxd) holds the bytes written as hex, not the bytes themselves.
    const hex = /^[0-9a-fA-F]{2}/.test(input.text.trimStart()) ? parseHex(input.text.trim()) : undefined;
    if (hex?.ok) return { bytes: hex.bytes, restore: false, note: `Read from ${HEX_FORM_LABELS[hex.form]}.` };
    return { bytes: input.bytes, restore: false };
  }
  const text = input.text.trim();
  if (!/^(HTTP\/|[A-Za-z])/.test(text) || /^[0-9a-fA-F]{4,}/.test(text)) {
    const hex = parseHex(text);
    if (hex.ok) return { bytes: hex.bytes, restore: false, note: `Read from ${HEX_FORM_LABELS[hex.form]}.` };
  }
  const restore = input.restoreCrlf ?? true;
  return { bytes: utf8.encode(input.text.replace(/^\s*\n/, '')), restore };
}

function http1(input: InspectInput): Body {
  const { bytes, restore, note } = http1Bytes(input);
  const restored: Restored = { heads: 0, chunkLines: 0 };
  const segments = splitConversation(bytes, restore, restored);
  const framing =
    restored.chunkLines > 0
      ? ` and ${countOf(restored.chunkLines, 'chunked framing line')} (chunk-size lines, the line end after each chunk's data, trailers)`
      : '';
  return conversation(segments, [
    ...(note ? [note] : []),
    ...(restored.heads > 0 || restored.chunkLines > 0
      ? [
          `Line endings were LF; read as CR LF in ${countOf(restored.heads, 'message head')}${framing}. Pasted text loses its CR characters (a browser text box keeps LF only), and HTTP/1.1 ends these lines with CR LF (RFC 9112 §2.2, §7.1). Body data is left as pasted. Drop the file instead to read its exact bytes.`,
        ]
      : []),
  ]);
}

function curl(input: InspectInput): Body {
  const trace = looksLikeTrace(input.text) ? parseTrace(input.text) : undefined;
  const transcript = trace ?? parseCurl(input.text);
  if (transcript.segments.length === 0)
    return { format: 'curl', problems: [{ message: 'No "> " or "< " lines: curl printed no request or response head here.' }], notes: [] };
  const messages = curlMessages(transcript);
  const remarks = [
    ...(transcript.meter !== undefined
      ? [
          `curl's progress meter (drawn on standard error when standard output goes elsewhere, and no -s) was set aside as a remark, not read as a body; its last row: "${transcript.meter}".`,
        ]
      : []),
    ...(transcript.info.length ? [`curl's remarks: ${transcript.info.slice(0, 6).join(' / ')}${transcript.info.length > 6 ? ' …' : ''}`] : []),
  ];
  if (trace) {
    remarks.unshift(
      trace.form === 'hex'
        ? 'Read from a curl --trace log: every byte curl sent and received, in hex, bodies included.'
        : `Read from a curl --trace-ascii log: heads and bodies, CR LF restored from the row offsets${trace.dots > 0 ? `; ${countOf(trace.dots, 'body byte')} printed as "." (curl prints every byte outside printable ASCII so, LF included) read as "."; curl --trace keeps them exactly` : ''}.`,
    );
  }
  const clock = trace ? clockNote(trace) : undefined;
  if (clock) remarks.unshift(clock);
  const traceProblems: Problem[] = trace ? trace.problems.map((p) => ({ message: `curl's trace does not add up: ${p.message}.`, where: p.where })) : [];
  if (messages.some((m) => m.version === 'HTTP/2')) {
    const body = curlHttp2(messages, transcript, remarks);
    return { ...body, problems: [...traceProblems, ...body.problems] };
  }
  // RFC 7540 §3.2's Upgrade to h2c (curl --http2 on http:), which RFC 9113 §3.1 no longer defines: a server
  // that switches answers 101 first.
  const offered = messages.some((m) => m.from === 'client' && m.fields.some((f) => f.name.toLowerCase() === 'upgrade' && /\bh2c\b/i.test(f.value)));
  const declined =
    offered && !messages.some((m) => m.status === 101)
      ? [
          'curl offered to switch to HTTP/2 (Upgrade: h2c, which RFC 9113 §3.1 deprecated), and the server answered in HTTP/1.1 instead of 101 Switching Protocols: the connection stayed HTTP/1.1. curl --http2-prior-knowledge starts in HTTP/2 instead.',
        ]
      : [];
  const read = curlHeads(transcript);
  const segments = mergeWrites(read.segments);
  const problems: Problem[] = [...traceProblems];
  for (const v of read.verdicts.filter((v) => v.strict && v.error))
    problems.push({
      message: `${v.from === 'client' ? 'Requests' : 'Responses'}: ${v.error!.message} (${v.error!.code})`,
      where: `line ${v.error!.line}, column ${v.error!.column} (byte ${v.error!.offset} of the ${v.from}'s bytes)`,
    });
  const requests = messages.filter((m) => m.from === 'client');
  const responses = messages.filter((m) => m.from === 'server' && m.status !== undefined && (m.status >= 200 || m.status === 101));
  return {
    format: 'curl',
    recording: recordingOf('Inspected curl -v transcript', http1Events(segments, machineSteps(segments)), { httpVersion: '1.1' }),
    problems,
    notes: [...declined, ...transcript.notes, ...read.notes, ...remarks, untimed('message')],
    verdicts: read.verdicts,
    // What curl saw: the status and fields of each response, and its body where curl printed one; a trace
    // holds the bytes, read as a conversation (de-chunked).
    replay: {
      from: trace ? `a curl --trace${trace.form === 'ascii' ? '-ascii' : ''} log` : 'a curl -v transcript',
      exchanges: trace
        ? http1Exchanges(segments)
        : requests.map((req, i) => {
            const res = responses[i];
            return {
              method: req.method ?? 'GET',
              path: req.path ? (req.path.startsWith('/') ? req.path : safePath(req.path)) : '/',
              requestHeaders: req.fields,
              requestBody: '',
              status: res?.status ?? 502,
              responseHeaders: res ? res.fields : [],
              responseBody: res ? printedBody(res) : 'The capture holds no response to this request.',
            };
          }),
    },
  };
}

/** The body curl printed, with the final LF its lines were split at when Content-Length counts it. */
function printedBody(m: CurlMessage): string {
  const length = m.fields.find((f) => f.name.toLowerCase() === 'content-length')?.value;
  return length !== undefined && utf8.encode(`${m.body}\n`).length === Number(length) ? `${m.body}\n` : m.body;
}

/**
 * curl's HTTP/1 heads as wire bytes, and the engine's verdict on each, message by message: a body curl printed
 * is read with its head when it is the bytes Content-Length counts; a head whose body curl left out (or
 * printed de-chunked) is read as a head, and counted as such, not as a message the capture cut short.
 */
function curlHeads(t: CurlTranscript): { segments: Segment[]; verdicts: Verdict[]; notes: string[] } {
  const notes: string[] = [];
  const parts = t.segments.map((s) => {
    const head = utf8.encode(s.head);
    const fields = s.head.split('\r\n');
    const field = (name: string) =>
      fields
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const length = field('content-length');
    const chunked = /\bchunked\b/i.test(field('transfer-encoding') ?? '');
    let bytes: Uint8Array = head;
    if (s.wire) bytes = concatBytes(head, s.wire);
    else if (s.body !== undefined && !chunked && length !== undefined) {
      // The body lines were split at LF, so a final LF is either the body's or the terminal's: try both.
      for (const body of [s.body, `${s.body}\n`]) {
        const b = utf8.encode(body);
        if (String(b.length) === length) bytes = concatBytes(head, b);
      }
    }
    return { from: s.from, bytes, segment: s, length, chunked };
  });
  const segments: Segment[] = parts.map((p) => ({ from: p.from, bytes: p.bytes }));
  const both = directions(segments);
  const verdicts: Verdict[] = [];
  const methods: string[] = [];
  for (const from of ['client', 'server'] as const) {
    const mine = parts.filter((p) => p.from === from);
    if (mine.length === 0) continue;
    for (const strict of [true, false]) {
      let messages = 0;
      let leftOut = 0;
      let base = 0;
      let error: Verdict['error'];
      let incomplete = false;
      const tolerated: Located[] = [];
      let finals = 0;
      for (const p of mine) {
        const reads = from === 'client' ? 'request' : 'response';
        const reader = new Http1Reader(reads, { strict, maxBodyBytes: Infinity });
        reader.feed(p.bytes);
        // A trace holds the body's bytes: what follows them is the next message, or the end of the connection
        // (a response without Content-Length ends there, RFC 9112 §6.3).
        if (p.segment.wire) reader.feedEof();
        let head: { status?: number; method?: string } | undefined;
        let outcome: 'whole' | 'head' | 'cut' | 'error' = 'cut';
        for (let i = 0; i < 10_000; i++) {
          const ev = reader.next(reads === 'response' && methods[finals] ? { method: methods[finals]! } : {});
          if (ev.type === 'request') head = { method: ev.method };
          else if (ev.type === 'response') head = { status: ev.status };
          else if (ev.type === 'informational' || ev.type === 'end-of-message') {
            outcome = 'whole';
            break;
          } else if (ev.type === 'error') {
            const at = base + ev.error.offset;
            error = { code: ev.error.code, message: ev.error.message, offset: at, ...locate(both[from], at) };
            outcome = 'error';
            break;
          } else if (ev.type === 'data') continue;
          else {
            outcome = head ? 'head' : 'cut';
            break;
          }
        }
        for (const x of reader.tolerated) tolerated.push({ code: x.code, message: x.message, offset: base + x.offset, ...locate(both[from], base + x.offset) });
        if (strict && from === 'client' && head?.method) methods.push(head.method);
        if (from === 'server' && head?.status !== undefined && (head.status >= 200 || head.status === 101)) finals++;
        if (outcome === 'error') break;
        if (outcome === 'cut') {
          incomplete = true;
          break;
        }
        messages++;
        if (outcome === 'head') {
          leftOut++;
          if (strict) notes.push(leftOutNote(p.segment, p.length, p.chunked, head?.status));
        }
        base += p.bytes.length;
      }
      verdicts.push({ from, strict, messages, incomplete, ...(error ? { error } : {}), tolerated, ...(leftOut > 0 ? { bodiesLeftOut: leftOut } : {}) });
    }
  }
  return { segments, verdicts, notes };
}

/** What curl left out of one message, in words, from its framing (RFC 9112 §6.3) and curl's markers. */
function leftOutNote(s: CurlSegment, length: string | undefined, chunked: boolean, status: number | undefined): string {
  const what =
    s.from === 'client'
      ? `The request's body (curl sent a request body of ${countOf(s.marked, 'byte')})`
      : `The ${status ?? ''} response's body`.replace('  ', ' ');
  const framing = chunked
    ? 'it was chunked, so no length was announced (RFC 9112 §7.1)'
    : length !== undefined
      ? `Content-Length says ${countOf(Number(length), 'byte')} (RFC 9112 §6.3)`
      : 'it had no Content-Length, so it ran until the server closed the connection (RFC 9112 §6.3)';
  const marked =
    s.marked > 0
      ? `; curl's marker counted ${countOf(s.marked, 'byte')} ${s.from === 'client' ? 'sent' : 'received'}${chunked ? ', chunk framing included' : ''}`
      : '';
  const printed =
    s.body !== undefined
      ? ` curl printed the body${chunked ? ' without its chunked framing' : ''} on standard output: it is shown and replayed as text, not read as wire bytes.`
      : '';
  const never = s.from === 'client' ? ' curl -v never prints what it sends; --trace-ascii does.' : '';
  return `${what} is not in curl's log: ${framing}${marked}.${never} Its head is read whole; the body is neither invented nor counted as cut.${printed}`;
}

/**
 * `curl -v` over HTTP/2 printed no bytes, only the fields of each HEADERS frame (curl.ts): they are shown as
 * fields, and each message is an arrow in the Sequence view, labelled from a head rebuilt from them.
 */
function curlHttp2(messages: readonly CurlMessage[], transcript: CurlTranscript, remarks: string[]): Body {
  const head = (m: CurlMessage) =>
    `${m.from === 'client' ? `${m.method ?? '?'} ${m.path ?? '/'}` : m.startLine}\r\n${m.fields.map((f) => `${f.name}: ${f.value}\r\n`).join('')}\r\n`;
  const segments: Segment[] = messages.map((m) => ({ from: m.from, bytes: utf8.encode(head(m)) }));
  const requests = messages.filter((m) => m.from === 'client');
  const responses = messages.filter((m) => m.from === 'server' && m.status !== undefined && m.status >= 200);
  const regular = (m: CurlMessage) => m.fields.filter((f) => !f.name.startsWith(':'));
  return {
    format: 'curl',
    recording: recordingOf('curl -v over HTTP/2', http1Events(segments, []), { httpVersion: '2', bytes: 'rebuilt' }),
    problems: [],
    notes: [
      'curl spoke HTTP/2, so its "> " and "< " lines are its own HTTP/1-like rendering of HEADERS frames, not bytes on the wire: the HTTP/1 checks do not apply. The fields each frame carried are below, pseudo-header fields first (RFC 9113 §8.3).',
      ...(requests.length > transcript.listed.length
        ? [
            'curl listed no fields for a request (curl -v does from 7.88 on): they are worked out from its "> " lines, Host as :authority and names in lowercase.',
          ]
        : []),
      untimed('message'),
      ...transcript.notes,
      ...remarks,
    ],
    curl: { version: 'HTTP/2', messages },
    replay: {
      from: 'curl -v over HTTP/2',
      exchanges: requests.map((req, i) => {
        const res = responses[i];
        return {
          method: req.method ?? 'GET',
          path: req.path ?? '/',
          requestHeaders: regular(req),
          requestBody: '',
          status: res?.status ?? 502,
          responseHeaders: res ? regular(res) : [],
          responseBody: res ? res.body : 'The capture holds no response to this request.',
        };
      }),
    },
  };
}

/** Said wherever to-recording.ts spaces pasted input by steps. */
const untimed = (what: string) =>
  `Pasted bytes hold no times: the views put each ${what} ${STEP_MS} ms after the one before, so the times there give the order, not a measurement.`;

function conversation(segments: Segment[], notes: string[]): Body {
  if (segments.length === 0) return { format: 'http1', problems: [{ message: 'There are no bytes to read.' }], notes };
  const all = verdicts(segments);
  const problems: Problem[] = all
    .filter((v) => v.strict && v.error)
    .map((v) => ({
      message: `${v.from === 'client' ? 'Requests' : 'Responses'}: ${v.error!.message} (${v.error!.code})`,
      where: `line ${v.error!.line}, column ${v.error!.column} (byte ${v.error!.offset} of the ${v.from}'s bytes)`,
    }));
  const events = http1Events(segments, machineSteps(segments));
  return {
    format: 'http1',
    recording: recordingOf('Inspected HTTP/1 conversation', events, { httpVersion: '1.1' }),
    problems,
    notes: [...notes, untimed('message')],
    verdicts: all,
    replay: { from: 'an HTTP/1 conversation', exchanges: http1Exchanges(segments) },
  };
}

interface ReadMessage {
  head: { method?: string; target?: string; status?: number; headers: readonly { name: string; value: string }[] };
  body: Uint8Array[];
}

/** The whole messages in one direction, read leniently; responses with the methods of the requests they answer. */
function readMessages(bytes: Uint8Array, reads: 'request' | 'response', methods: readonly string[] = []): ReadMessage[] {
  const reader = new Http1Reader(reads, { strict: false, maxBodyBytes: Infinity });
  reader.feed(bytes);
  reader.feedEof();
  const out: ReadMessage[] = [];
  let current: ReadMessage | undefined;
  for (let i = 0; i < 1_000_000; i++) {
    const ev = reader.next(reads === 'response' ? { ...(methods[out.length] ? { method: methods[out.length] } : {}) } : {});
    if (ev.type === 'request') current = { head: { method: ev.method, target: ev.target, headers: ev.headers }, body: [] };
    else if (ev.type === 'response') current = { head: { status: ev.status, headers: ev.headers }, body: [] };
    else if (ev.type === 'data') current?.body.push(ev.data);
    else if (ev.type === 'end-of-message') {
      if (current) out.push(current);
      current = undefined;
    } else if (ev.type !== 'informational') break;
  }
  return out;
}

function http1Exchanges(segments: Segment[]): ReplayExchange[] {
  const both = directions(segments);
  const decoder = new TextDecoder();
  const text = (parts: Uint8Array[]) => parts.map((p) => decoder.decode(p, { stream: true })).join('') + decoder.decode();
  const requests = readMessages(both.client, 'request');
  const responses = readMessages(
    both.server,
    'response',
    requests.map((r) => r.head.method!),
  );
  return requests.map((req, i) => {
    const res = responses[i];
    const target = req.head.target!;
    return {
      method: req.head.method!,
      path: target.startsWith('/') ? target : safePath(target),
      requestHeaders: req.head.headers,
      requestBody: text(req.body),
      // 502 (RFC 9110 §15.6.3): what a gateway says when the server's answer is missing.
      status: res?.head.status ?? 502,
      responseHeaders: res?.head.headers ?? [],
      responseBody: res ? text(res.body) : 'The capture holds no response to this request.',
    };
  });
}

function safePath(target: string): string {
  try {
    const u = new URL(target);
    return u.pathname + u.search;
  } catch {
    return '/';
  }
}

function hexBytes(input: InspectInput): { bytes: Uint8Array; note: string } | Problem {
  const form = hexForm(input.text);
  // A file is its raw bytes unless it is a hex dump (an xxd dump's character column is not hex, so its form says).
  if (input.bytes && form === 'stream' && !/^[\s0-9a-fA-F:,x]*$/.test(input.text.slice(0, 200)))
    return { bytes: input.bytes, note: "Read as the file's raw bytes." };
  const hex = parseHex(input.text, form);
  if (!hex.ok) return { message: `This is not readable as ${HEX_FORM_LABELS[form]}: ${hex.message}`, where: `line ${hex.line}, column ${hex.column}` };
  return { bytes: hex.bytes, note: `Read from ${HEX_FORM_LABELS[hex.form]}: ${countOf(hex.bytes.length, 'byte')}.` };
}

function h2(input: InspectInput): Body {
  const sections = input.bytes ? undefined : h2Sections(input.text);
  if (sections) return h2Pair(sections, input);
  const got = hexBytes(input);
  if ('message' in got) return { format: 'h2', problems: [got], notes: [] };
  const reading = readFrames(got.bytes, {
    ...(input.sender ? { sender: input.sender } : {}),
    ...(input.tableSize !== undefined ? { tableSize: input.tableSize } : {}),
  });
  // Both directions pasted as one: the client's preface, then blocks with :status (or blocks that stop decoding,
  // as the server's were encoded against another table).
  const statusAmongClient = reading.preface && reading.events.some((e) => e.type === 'h2-frame' && e.headers?.some((f) => f.name === ':status'));
  if (!input.sender && (statusAmongClient || (reading.preface && reading.problem && reading.blocks > 0))) {
    const split = splitDirections(got.bytes);
    if (split) {
      return h2Pair(
        [
          { from: 'client', bytes: split.client, note: got.note },
          { from: 'server', bytes: split.server },
        ],
        input,
        `These bytes hold both directions pasted as one: the client's (from its connection preface) up to byte ${split.at}, then the server's, which begin with its SETTINGS frame (the server's connection preface, RFC 9113 §3.4). Read as one connection, each side's field blocks with their own HPACK table (RFC 7541 §2.2).`,
      );
    }
  }
  const problems: Problem[] = reading.problem
    ? [{ message: reading.problem.message, where: `byte ${reading.problem.offset}${reading.problem.frame ? ` (frame ${reading.problem.frame})` : ''}` }]
    : [];
  if (statusAmongClient)
    problems.push({
      message:
        'A field block with :status follows the client\'s connection preface: these bytes seem to hold both directions, read here as one sender with one HPACK table. Paste each side under a line "client:" or "server:" (or the two separated by a blank line) to read them as one connection.',
    });
  for (const f of reading.findings) problems.push({ message: f.message, where: `byte ${f.offset} (frame ${f.frame})` });
  if (reading.frames === 0 && !reading.preface && problems.length === 0) problems.push({ message: 'No HTTP/2 frame was found in these bytes.' });
  const peer = reading.sender === 'client' ? 'server' : 'client';
  const notes = [
    got.note,
    reading.preface
      ? "It starts with the client connection preface, so these are the client's frames."
      : `No connection preface: taken as the ${reading.sender}'s frames${input.sender ? ' (chosen)' : ''}.`,
    ...(reading.openedByPeer.length > 0
      ? [
          `The ${peer} opened ${reading.openedByPeer.length === 1 ? 'stream' : 'streams'} ${reading.openedByPeer.join(', ')} with ${peer === 'client' ? 'HEADERS' : 'PUSH_PROMISE'} frames this capture does not hold (RFC 9113 §5.1.1: ${peer === 'client' ? 'odd' : 'even'} stream ids are the ${peer}'s): both endpoints' stream states start from them, as if the ${peer} had not ended its side of the stream.`,
        ]
      : []),
    untimed('frame'),
  ];
  const noReplay = `Replay is not offered: these are only the ${reading.sender}'s frames, and a replay needs each request with the response that answered it. Paste the ${peer}'s frames too (under a line "client:" or "server:"), or drop a HAR (nghttp --har, a browser's) or a curl -v log, which hold both.`;
  return {
    format: 'h2',
    noReplay,
    ...(reading.events.length > 0
      ? {
          recording: recordingOf(`Inspected HTTP/2 frames (${reading.sender})`, h2Events(reading.events, reading.sender), {
            httpVersion: '2',
            headerTableSize: input.tableSize ?? 4096,
          }),
        }
      : {}),
    problems,
    notes,
    h2: { sender: reading.sender, preface: reading.preface, frames: reading.frames, blocks: reading.blocks, flow: reading.flow },
  };
}

/** Both sides of one connection (h2-connection.ts): matched streams, both HPACK tables, flow control both ways. */
function h2Pair(sections: readonly H2Section[], input: InspectInput, splitNote?: string): Body {
  const chunks: { client: { bytes: Uint8Array }[]; server: { bytes: Uint8Array }[] } = { client: [], server: [] };
  const read: string[] = [];
  for (const [i, section] of sections.entries()) {
    let bytes = section.bytes;
    if (!bytes) {
      const got = hexBytes({ text: section.text ?? '' });
      if ('message' in got)
        return { format: 'h2', problems: [{ ...got, where: `the ${section.from}'s section (${i + 1} of ${sections.length}), ${got.where}` }], notes: [] };
      bytes = got.bytes;
      read.push(`${section.from}: ${got.note}`);
    } else if (section.note) read.push(section.note);
    chunks[section.from].push({ bytes });
  }
  const reading = readH2Connection(chunks);
  const problems: Problem[] = [];
  for (const side of ['client', 'server'] as const) {
    const p = reading[side].problem;
    if (p)
      problems.push({ message: `The ${side}'s bytes: ${p.message}`, where: `byte ${p.offset} of the ${side}'s bytes${p.frame ? ` (frame ${p.frame})` : ''}` });
  }
  for (const f of reading.findings)
    problems.push({ message: f.message, ...(f.frame ? { where: `byte ${f.offset} of the ${f.sender ?? 'client'}'s bytes (frame ${f.frame})` } : {}) });
  for (const s of reading.streams) {
    for (const [what, fields] of [
      ['request', s.request],
      ['response', s.response],
    ] as const) {
      for (const message of pseudoHeaderBreaches(fields ?? [])) problems.push({ message, where: `stream ${s.streamId}, the ${what}` });
    }
  }
  const answered = reading.streams.filter((s) => s.request && s.openedBy === 'client');
  const decoder = new TextDecoder();
  const field = (fields: readonly { name: string; value: string }[] | undefined, name: string) => fields?.find((f) => f.name === name)?.value;
  const regular = (fields: readonly { name: string; value: string }[] | undefined) => (fields ?? []).filter((f) => !f.name.startsWith(':'));
  return {
    format: 'h2',
    ...(reading.events.length > 0
      ? {
          recording: recordingOf('Inspected HTTP/2 connection (both sides)', h2ConnectionEvents(reading.events, reading.timed), {
            httpVersion: '2',
            headerTableSize: input.tableSize ?? 4096,
          }),
        }
      : {}),
    problems,
    notes: [
      ...(splitNote ? [splitNote] : []),
      ...read,
      `Both sides of one connection: ${countOf(reading.client.frames, 'frame')} from the client, ${countOf(reading.server.frames, 'frame')} from the server, ${countOf(reading.streams.length, 'stream')} matched by id. Each side's blocks are decoded with the table its peer keeps for it, and each side's DATA is counted against the windows its peer gave (SETTINGS_INITIAL_WINDOW_SIZE and WINDOW_UPDATE, RFC 9113 §6.9).`,
      'Pasted bytes hold no times: the two sides are interleaved by what each frame needs first (the server answers a stream after the HEADERS that opened it, acknowledges SETTINGS after they came), so a flow-control window is flagged only when it is overrun once every frame is counted.',
    ],
    h2Connection: {
      timed: reading.timed,
      client: { preface: reading.client.preface, frames: reading.client.frames, blocks: reading.client.blocks, flow: reading.client.flow },
      server: { preface: reading.server.preface, frames: reading.server.frames, blocks: reading.server.blocks, flow: reading.server.flow },
      streams: reading.streams.map((s) => ({
        streamId: s.streamId,
        ...(field(s.request, ':method') ? { method: field(s.request, ':method')! } : {}),
        ...(field(s.request, ':path') ? { path: field(s.request, ':path')! } : {}),
        ...(s.status !== undefined ? { status: s.status } : {}),
        requestData: s.requestData,
        responseData: s.responseData,
        states: s.states,
      })),
    },
    ...(answered.length > 0
      ? {
          replay: {
            from: 'an HTTP/2 connection (both sides)',
            exchanges: answered.map((s) => ({
              method: field(s.request, ':method') ?? 'GET',
              path: field(s.request, ':path') ?? '/',
              requestHeaders: regular(s.request),
              requestBody: decoder.decode(s.requestBody),
              // 502 (RFC 9110 §15.6.3): what a gateway says when the server's answer is missing.
              status: s.status ?? 502,
              responseHeaders: regular(s.response),
              responseBody: s.status !== undefined ? decoder.decode(s.responseBody) : 'The capture holds no response to this request.',
            })),
          },
        }
      : {}),
  };
}

/**
 * The blocks in pasted HPACK hex: a blank line between groups, or else one block per line. xxd -p wraps one long
 * run at 60 hex digits a line, so lines that all (but the last) hold exactly 60 digits stay one block.
 */
export function hpackBlockTexts(text: string): string[] {
  const groups = text
    .split(/\n[ \t]*\r?\n/)
    .map((g) => g.trim())
    .filter((g) => g !== '');
  if (groups.length > 1) return groups;
  if (hexForm(text) !== 'stream') return [text];
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const digits = (l: string) => l.replace(/[^0-9a-fA-F]/g, '').length;
  if (lines.length < 2 || lines.slice(0, -1).every((l) => digits(l) === 60)) return [text];
  return lines;
}

function hpack(input: InspectInput): Body {
  const tableSize = input.tableSize ?? 4096;
  const texts = input.bytes && !/^[\s0-9a-fA-F:,x]*$/.test(input.text.slice(0, 200)) ? [input.text] : hpackBlockTexts(input.text);
  const parts: Uint8Array[] = [];
  let note = '';
  for (const [i, text] of texts.entries()) {
    const got = hexBytes(texts.length === 1 ? input : { text });
    if ('message' in got) return { format: 'hpack', problems: [texts.length > 1 ? { ...got, where: `block ${i + 1}, ${got.where}` } : got], notes: [] };
    parts.push(got.bytes);
    note = got.note;
  }
  const { reading, blocks, failed } = readBlocks(parts, tableSize);
  const many = parts.length > 1;
  const problems: Problem[] = [];
  if (reading.problem)
    problems.push({ message: reading.problem.message, where: `byte ${failed?.offset ?? 0} of ${many ? `block ${failed?.block ?? 1}` : 'the block'}` });
  blocks.forEach((fields, i) => {
    for (const message of pseudoHeaderBreaches(fields)) problems.push({ message, ...(many ? { where: `block ${i + 1}` } : {}) });
  });
  const fields = blocks.flat();
  return {
    format: 'hpack',
    ...(reading.events.length > 0 && !reading.problem
      ? {
          recording: recordingOf(many ? `Inspected ${parts.length} HPACK blocks` : 'Inspected HPACK block', h2Events(reading.events, 'client'), {
            headerTableSize: tableSize,
          }),
        }
      : {}),
    problems,
    notes: [
      many
        ? `${parts.length} blocks (one per ${texts.length > 1 && /\n[ \t]*\r?\n/.test(input.text) ? 'blank-line-separated group' : 'line'}), ${parts.map((p) => p.length).join(' + ')} bytes, ${countOf(fields.length, 'field')} in all.`
        : note,
      many
        ? 'The blocks are decoded in order by one decoder, as a receiver decodes the blocks of one connection: each starts with the dynamic table the one before it left (RFC 7541 §2.3.2). The first starts with an empty table. The views show each inside the HEADERS frame that would carry it (streams 1, 3, 5, ...): only those 9-octet frame headers are added.'
        : 'The block is decoded as the first on its connection (an empty dynamic table). The views show it inside the HEADERS frame that would carry it: only that 9-octet frame header is added.',
    ],
    hpack: { fields, blocks, table: reading.table },
  };
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
