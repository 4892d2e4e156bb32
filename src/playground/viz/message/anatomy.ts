/**
 * The message inspector's model: one direction of an HTTP/1.x connection, cut into labelled parts that
 * cover every byte exactly once (start line pieces, each field's name and value, the empty line, the body,
 * chunk sizes and trailers), or stopped at the engine's error with the byte it points at.
 *
 * The engine decides everything: Http1Reader from roundtrip/wire reads the bytes, says where each message's
 * head ends (its offset after each event), how the body is framed and where it ends, and raises the
 * WireError for bad input. This file only names the pieces inside ranges the engine has already accepted,
 * following the grammar of RFC 9112 (§3 request line, §4 status line, §5 field lines, §7.1 chunked coding).
 */
import { Http1Reader, type Http1Version, readTlsRecords } from 'roundtrip/wire';
import { TlsRecordReader, tlsRecordLabel, type TlsProtocol } from '../tls-records';

export type PartKind =
  | 'method'
  | 'target'
  | 'version'
  | 'status'
  | 'reason'
  | 'sp'
  | 'crlf'
  | 'field-name'
  | 'colon'
  | 'ows'
  | 'field-value'
  | 'empty-line'
  | 'ignored-line'
  | 'body'
  | 'chunk-size'
  | 'chunk-ext'
  | 'chunk-data'
  | 'last-chunk'
  | 'incomplete'
  | 'tunnel'
  | 'error-before'
  | 'error-byte'
  | 'error-after';

export interface Part {
  readonly start: number;
  readonly end: number;
  readonly kind: PartKind;
  /** What a reader sees: 'Method', 'Header field value (Content-Type)', 'Chunk size: 5 bytes'. */
  readonly label: string;
}

export interface MessageError {
  readonly code: string;
  readonly message: string;
  /** Offset of the offending byte in the direction's byte stream. */
  readonly offset: number;
  readonly line: number | undefined;
  readonly column: number | undefined;
}

export interface Dissected {
  readonly kind: 'request' | 'response' | 'informational' | 'incomplete' | 'error' | 'tunnel';
  readonly start: number;
  readonly end: number;
  /** The start line, or a description for the other kinds. */
  readonly title: string;
  readonly parts: readonly Part[];
  readonly error?: MessageError;
  /** Requests only: the method, which the responses on the connection need to be read (HEAD, CONNECT). */
  readonly method?: string;
  readonly version?: Http1Version;
}

export interface DissectOptions {
  /** True when the sender closed: a message cut short is then an error rather than "waiting for more". */
  readonly eof?: boolean;
  /** For responses: the methods (and versions) of the requests they answer, in order. */
  readonly requests?: readonly { readonly method: string; readonly version?: Http1Version }[];
  /**
   * The TLS a tunnel carries, when the connection's handshake events name one: the bytes after a CONNECT are
   * then cut into its records, each named as the proxy sees it (the handshake's messages; encrypted data).
   */
  readonly tunnelTls?: TlsProtocol;
}

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HTAB = 0x09;

const text = (bytes: Uint8Array, start: number, end: number): string => String.fromCharCode(...bytes.subarray(start, Math.min(end, start + 200)));

/** Ends of the line starting at `from`: content end (before CR LF or LF) and the end after the line break. */
function lineAt(bytes: Uint8Array, from: number, limit: number): { content: number; next: number } | undefined {
  const lf = bytes.subarray(from, limit).indexOf(LF);
  if (lf < 0) return undefined;
  const at = from + lf;
  return { content: at > from && bytes[at - 1] === CR ? at - 1 : at, next: at + 1 };
}

function startLine(bytes: Uint8Array, start: number, end: number, reads: 'request' | 'response', out: Part[]): void {
  const line = lineAt(bytes, start, end)!;
  const sp1 = bytes.subarray(start, line.content).indexOf(SP) + start;
  if (reads === 'request') {
    // RFC 9112 §3: method SP request-target SP HTTP-version; the target has no spaces, so the last SP ends it.
    const sp2 = bytes.subarray(start, line.content).lastIndexOf(SP) + start;
    out.push({ start, end: sp1, kind: 'method', label: `Method: ${text(bytes, start, sp1)}` });
    if (sp2 > sp1) {
      out.push({ start: sp1, end: sp1 + 1, kind: 'sp', label: 'Space' });
      out.push({ start: sp1 + 1, end: sp2, kind: 'target', label: `Request target: ${text(bytes, sp1 + 1, sp2)}` });
      out.push({ start: sp2, end: sp2 + 1, kind: 'sp', label: 'Space' });
      out.push({ start: sp2 + 1, end: line.content, kind: 'version', label: `HTTP version: ${text(bytes, sp2 + 1, line.content)}` });
    } else {
      // HTTP/0.9: "GET /path", no version.
      out.push({ start: sp1, end: sp1 + 1, kind: 'sp', label: 'Space' });
      out.push({ start: sp1 + 1, end: line.content, kind: 'target', label: `Request target: ${text(bytes, sp1 + 1, line.content)} (HTTP/0.9: no version)` });
    }
  } else {
    // RFC 9112 §4: HTTP-version SP status-code SP [reason-phrase]; the reason may hold spaces.
    const sp2 = sp1 + 4;
    out.push({ start, end: sp1, kind: 'version', label: `HTTP version: ${text(bytes, start, sp1)}` });
    out.push({ start: sp1, end: sp1 + 1, kind: 'sp', label: 'Space' });
    out.push({ start: sp1 + 1, end: sp2, kind: 'status', label: `Status code: ${text(bytes, sp1 + 1, sp2)}` });
    if (sp2 < line.content) {
      out.push({ start: sp2, end: sp2 + 1, kind: 'sp', label: 'Space' });
      if (sp2 + 1 < line.content)
        out.push({ start: sp2 + 1, end: line.content, kind: 'reason', label: `Reason phrase: ${text(bytes, sp2 + 1, line.content)}` });
    }
  }
  out.push({
    start: line.content,
    end: line.next,
    kind: 'crlf',
    label: line.next - line.content === 2 ? 'CR LF: end of the start line' : 'LF: end of the start line',
  });
}

/** Field lines from `start` up to and including the empty line that ends the section at `end`. */
function fieldLines(bytes: Uint8Array, start: number, end: number, what: 'Header' | 'Trailer', out: Part[]): void {
  let at = start;
  while (at < end) {
    const line = lineAt(bytes, at, end)!;
    if (line.content === at) {
      out.push({ start: at, end: line.next, kind: 'empty-line', label: `Empty line: the ${what.toLowerCase()} section ends` });
      return;
    }
    const colon = bytes.subarray(at, line.content).indexOf(0x3a) + at;
    const name = text(bytes, at, colon);
    let v = colon + 1;
    while (v < line.content && (bytes[v] === SP || bytes[v] === HTAB)) v++;
    let ve = line.content;
    while (ve > v && (bytes[ve - 1] === SP || bytes[ve - 1] === HTAB)) ve--;
    out.push({ start: at, end: colon, kind: 'field-name', label: `${what} field name: ${name}` });
    out.push({ start: colon, end: colon + 1, kind: 'colon', label: 'Colon' });
    if (v > colon + 1) out.push({ start: colon + 1, end: v, kind: 'ows', label: 'Optional whitespace (not part of the value)' });
    if (ve > v) out.push({ start: v, end: ve, kind: 'field-value', label: `${what} field value (${name})` });
    if (line.content > ve) out.push({ start: ve, end: line.content, kind: 'ows', label: 'Optional whitespace (not part of the value)' });
    out.push({ start: line.content, end: line.next, kind: 'crlf', label: 'CR LF: end of the field line' });
    at = line.next;
  }
}

/** A chunked body (RFC 9112 §7.1) the engine accepted, from the first chunk-size line to `end`. */
function chunkedBody(bytes: Uint8Array, start: number, end: number, out: Part[]): void {
  let at = start;
  while (at < end) {
    const line = lineAt(bytes, at, end);
    if (!line) break;
    let digits = at;
    while (digits < line.content && /[0-9a-fA-F]/.test(String.fromCharCode(bytes[digits]!))) digits++;
    const size = parseInt(text(bytes, at, digits), 16);
    if (size === 0) {
      out.push({ start: at, end: digits, kind: 'last-chunk', label: 'Last chunk: size 0, the body ends' });
    } else {
      out.push({ start: at, end: digits, kind: 'chunk-size', label: `Chunk size: 0x${text(bytes, at, digits)} = ${size} bytes` });
    }
    if (line.content > digits)
      out.push({ start: digits, end: line.content, kind: 'chunk-ext', label: `Chunk extension: ${text(bytes, digits, line.content)}` });
    out.push({ start: line.content, end: line.next, kind: 'crlf', label: 'CR LF: end of the chunk-size line' });
    at = line.next;
    if (size === 0) {
      fieldLines(bytes, at, end, 'Trailer', out);
      return;
    }
    const dataEnd = Math.min(at + size, end);
    out.push({ start: at, end: dataEnd, kind: 'chunk-data', label: `Chunk data (${dataEnd - at} of ${size} bytes)` });
    at = dataEnd;
    if (at >= end) return;
    const crlf = lineAt(bytes, at, end);
    if (!crlf) break;
    out.push({ start: at, end: crlf.next, kind: 'crlf', label: 'CR LF: end of the chunk data' });
    at = crlf.next;
  }
  if (at < end) out.push({ start: at, end, kind: 'incomplete', label: 'Incomplete: waiting for more bytes' });
}

/**
 * Cuts one direction of a connection into messages. `reads` says which: 'request' for the client's bytes,
 * 'response' for the server's.
 */
export function dissect(bytes: Uint8Array, reads: 'request' | 'response', options: DissectOptions = {}): Dissected[] {
  const reader = new Http1Reader(reads);
  reader.feed(bytes);
  if (options.eof) reader.feedEof();
  const out: Dissected[] = [];
  const requests = options.requests ?? [];
  let answered = 0;
  let current:
    | { kind: Dissected['kind']; start: number; headEnd: number; title: string; parts: Part[]; chunked: boolean; method?: string; version?: Http1Version }
    | undefined;
  let consumed = 0; // every byte before this offset belongs to a message in `out`

  const finish = (end: number) => {
    const c = current!;
    if (c.chunked) chunkedBody(bytes, c.headEnd, end, c.parts);
    else if (end > c.headEnd) c.parts.push({ start: c.headEnd, end, kind: 'body', label: `Body: ${end - c.headEnd} bytes` });
    out.push({ kind: c.kind, start: c.start, end, title: c.title, parts: c.parts, ...(c.method ? { method: c.method, version: c.version! } : {}) });
    consumed = end;
    current = undefined;
  };

  for (;;) {
    const before = reader.offset;
    const request = requests[answered];
    const ev = reader.next(reads === 'response' ? { ...(request ? { method: request.method, version: request.version } : {}) } : {});
    switch (ev.type) {
      case 'request':
      case 'response':
      case 'informational': {
        if (ev.type === 'response' && ev.version === '0.9') {
          // An HTTP/0.9 response is the body alone, read to the close: no start line or fields to label.
          current = {
            kind: 'response',
            start: before,
            headEnd: before,
            title: 'HTTP/0.9 response: the body alone, no status line or headers',
            parts: [],
            chunked: false,
          };
          break;
        }
        const start = reader.meta?.offset ?? before;
        const parts: Part[] = [];
        for (let at = before; at < start; ) {
          const line = lineAt(bytes, at, start)!;
          parts.push({ start: at, end: line.next, kind: 'ignored-line', label: 'Empty line before the request line, ignored (RFC 9112 §2.2)' });
          at = line.next;
        }
        startLine(bytes, start, reader.offset, reads, parts);
        const firstLine = lineAt(bytes, start, reader.offset)!;
        if (reader.offset > firstLine.next) fieldLines(bytes, firstLine.next, reader.offset, 'Header', parts);
        current = {
          kind: ev.type,
          start: before,
          headEnd: reader.offset,
          title: text(bytes, start, firstLine.content),
          parts,
          chunked: ev.type !== 'informational' && reader.meta?.framing.kind === 'chunked',
          ...(ev.type === 'request' ? { method: ev.method, version: ev.version } : {}),
        };
        if (ev.type === 'informational') {
          finish(reader.offset);
          if (ev.status === 101) return tunnel(out, bytes, consumed, 'Bytes after 101 Switching Protocols: the new protocol, not HTTP/1');
        }
        break;
      }
      case 'data':
        break;
      case 'end-of-message': {
        finish(reader.offset);
        // The method of the request this message is or answers: a 2xx to CONNECT opens the tunnel as well.
        const method = reads === 'response' ? requests[answered]?.method : out[out.length - 1]!.method;
        if (reads === 'response') answered++;
        const framing = reader.meta?.framing.kind;
        if (framing === 'tunnel' || reader.meta?.proposesSwitch) {
          return tunnel(
            out,
            bytes,
            consumed,
            method === 'CONNECT' ? 'Tunnel bytes after CONNECT: not HTTP/1' : 'Bytes after the protocol switch: not HTTP/1',
            options.tunnelTls,
          );
        }
        break;
      }
      case 'error': {
        const e = ev.error;
        const start = current?.start ?? consumed;
        // An error at the end of the input (the message was cut short) points past the last byte.
        const offset = Math.max(start, Math.min(e.offset, bytes.length));
        const parts: Part[] = [];
        if (offset > start) parts.push({ start, end: offset, kind: 'error-before', label: 'Read without complaint' });
        if (offset < bytes.length) parts.push({ start: offset, end: offset + 1, kind: 'error-byte', label: `The byte the parser stopped at: ${e.code}` });
        if (offset + 1 < bytes.length)
          parts.push({ start: offset + 1, end: bytes.length, kind: 'error-after', label: 'Not read: the parser stops at the first error' });
        out.push({
          kind: 'error',
          start,
          end: bytes.length,
          title: current?.title ?? text(bytes, start, lineAt(bytes, start, bytes.length)?.content ?? Math.min(bytes.length, start + 60)),
          parts,
          error: { code: e.code, message: e.message, offset: e.offset, line: e.line, column: e.column },
        });
        return out;
      }
      case 'need-data':
      case 'connection-closed':
      case 'paused': {
        if (current) {
          // A body still arriving (or read to the close): what is there so far.
          const c = current;
          const end = bytes.length;
          if (c.chunked) chunkedBody(bytes, c.headEnd, end, c.parts);
          else if (end > c.headEnd) c.parts.push({ start: c.headEnd, end, kind: 'body', label: `Body so far: ${end - c.headEnd} bytes` });
          out.push({ kind: 'incomplete', start: c.start, end, title: c.title, parts: c.parts, ...(c.method ? { method: c.method, version: c.version! } : {}) });
        } else if (consumed < bytes.length) {
          out.push({
            kind: 'incomplete',
            start: consumed,
            end: bytes.length,
            title: 'A message still arriving',
            parts: [{ start: consumed, end: bytes.length, kind: 'incomplete', label: 'Incomplete: waiting for the rest of the head' }],
          });
        }
        return out;
      }
    }
  }
}

function tunnel(out: Dissected[], bytes: Uint8Array, from: number, label: string, tls?: TlsProtocol): Dissected[] {
  if (from < bytes.length) {
    const parts = tls ? tlsRecordParts(bytes, from, tls) : undefined;
    out.push({ kind: 'tunnel', start: from, end: bytes.length, title: label, parts: parts ?? [{ start: from, end: bytes.length, kind: 'tunnel', label }] });
  }
  return out;
}

/**
 * The tunnel's bytes as TLS records (RFC 8446 §5.1: type, 0x0303, 16-bit length), each a part named by what it
 * carries, as the proxy relaying them sees it: the handshake's messages, then data it cannot read. Undefined
 * when the bytes do not start as TLS records.
 */
function tlsRecordParts(bytes: Uint8Array, from: number, protocol: TlsProtocol): Part[] | undefined {
  const reader = new TlsRecordReader();
  const parts: Part[] = [];
  let at = from;
  for (const { type, start, payloadStart, end, complete } of readTlsRecords(bytes, { from, check: true })) {
    const content = reader.read(type, String.fromCharCode(...bytes.subarray(payloadStart, Math.min(end, payloadStart + 200))), protocol);
    const named = content.kind === 'application-data' ? 'TLS application data (encrypted: the proxy relays it unread)' : tlsRecordLabel(content);
    parts.push({ start, end, kind: 'tunnel', label: complete ? named : `${named}, still arriving` });
    at = end;
  }
  if (parts.length === 0) return undefined;
  if (at < bytes.length) parts.push({ start: at, end: bytes.length, kind: 'tunnel', label: 'The start of the next TLS record, still arriving' });
  return parts;
}
