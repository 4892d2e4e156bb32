/**
 * `curl -v` output back into what crossed the wire. curl prints the request head it wrote with "> " before
 * each line, the response head it read with "< ", and its own remarks with "* "; with standard output
 * redirected it marks each body it sent or received as "} [19 bytes data]" or "{ [41 bytes data]" instead of
 * printing it. The response body itself goes to standard output, so in `curl -v URL 2>&1` it follows curl's
 * remarks, unprefixed, and de-chunked (curl prints the payload, not the chunked framing). Without -s, and with
 * standard output elsewhere, curl also draws its progress meter on standard error: two title lines, then rows
 * redrawn after a CR and never ended by LF, so the next remark starts on the same line.
 *
 * So a transcript is heads, each with the body curl printed or a note of what it left out: a head is rebuilt
 * with CR LF after every line (HTTP/1.1 requires it, RFC 9112 §2.2; curl prints the CR, a text box drops it),
 * and a body curl did not print is never invented: its length is what Content-Length says (RFC 9112 §6.3), or
 * unknown for chunked framing (§7.1), and the markers say how many bytes curl moved.
 */

export interface CurlSegment {
  readonly from: 'client' | 'server';
  /** The head, then the body if curl printed one. */
  readonly text: string;
  /** The head alone, CR LF after every line, ending in the empty line (if curl printed it). */
  readonly head: string;
  /** The body as curl printed it to standard output; undefined: curl printed none here. */
  readonly body?: string;
  /** Bytes curl's "{ [N bytes data]" / "} [N bytes data]" markers counted after this head (0: no marker). */
  readonly marked: number;
  /** The body as the bytes on the wire (a --trace log holds them, trace.ts); absent: curl -v printed none. */
  readonly wire?: Uint8Array;
}

/** One request's fields as curl listed them before sending its HEADERS frame (HTTP/2 only). */
export interface ListedFields {
  streamId?: number;
  readonly fields: { readonly name: string; readonly value: string }[];
}

export interface CurlTranscript {
  readonly segments: readonly CurlSegment[];
  /** HTTP/2 requests' field lists, in order (see LISTED). */
  readonly listed: readonly ListedFields[];
  /** curl's "* " remarks, in order. */
  readonly info: readonly string[];
  /** What curl did not print, in words. */
  readonly notes: readonly string[];
  /** The progress meter's last row (curl without -s, standard output elsewhere), set aside; undefined: none. */
  readonly meter?: string;
}

/**
 * Over HTTP/2 curl lists each request's fields, pseudo-header fields first, as it hands them to nghttp2:
 * "* [HTTP/2] [1] [:method: GET]" after "* [HTTP/2] [1] OPENED stream for <url>" (curl 8, lib/http2.c), or
 * "* h2h3 [:method: GET]" then "* Using Stream ID: 1" (curl 7.88). Its "> " lines are an HTTP/1-like rendering
 * of the same request ("GET /todos/1 HTTP/2", "Host:" for :authority), and "< " lines of the response
 * ("HTTP/2 200", then the fields as received).
 */
const LISTED = /^(?:\[HTTP\/2\] \[(\d+)\] |h2h3 )\[(:?[^:\]]+): (.*)\]$/;
const OPENED = /^\[HTTP\/2\] \[(\d+)\] OPENED stream/;
const STREAM_ID = /^Using Stream ID: (\d+)/;

/** Lines that are curl's: a prefix, a data marker, or TLS progress ("* TLSv1.3 (OUT)..."). */
const MARKER = /^[{}] \[(\d+) bytes data\]$/;

/** Adds what one of curl's remarks says about an HTTP/2 request's field list (LISTED) to `listed`. */
export function listedField(listed: { streamId?: number; fields: { name: string; value: string }[] }[], remark: string): void {
  const opened = OPENED.exec(remark);
  const field = LISTED.exec(remark);
  const id = STREAM_ID.exec(remark);
  if (opened) listed.push({ streamId: Number(opened[1]), fields: [] });
  else if (field) {
    const last = listed.at(-1);
    // curl 7.88 says nothing before the list: a request's list starts with its :method.
    if (!last || (field[1] === undefined && field[2] === ':method') || (field[1] !== undefined && last.streamId !== Number(field[1])))
      listed.push({ ...(field[1] !== undefined ? { streamId: Number(field[1]) } : {}), fields: [] });
    listed.at(-1)!.fields.push({ name: field[2]!, value: field[3]! });
  } else if (id && listed.length > 0 && listed.at(-1)!.streamId === undefined) listed.at(-1)!.streamId = Number(id[1]);
}

/**
 * curl's progress meter (lib/progress.c): the two title lines, and each row, a fixed-width line of numbers
 * and times ("100   157  100   157    0     0   106k      0 --:--:-- --:--:-- --:--:--  153k").
 */
const METER_TITLE = /^\s*(% Total\s+% Received|Dload\s+Upload\s+Total)/;
const METER_ROW =
  /^\s*\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+[-\d:]{8}\s+[-\d:]{8}\s+[-\d:]{8}\s+[\d.]+[kMGTP]?/;

/**
 * A line of curl's standard error without the progress meter: the rows redrawn after each CR, and what
 * follows the last row on the same line (curl's next remark). Returns the rest and the last row seen.
 */
function withoutMeter(line: string): { rest: string; row?: string } {
  if (METER_TITLE.test(line)) return { rest: '', row: '' };
  let row: string | undefined;
  let rest = line;
  for (;;) {
    const m = METER_ROW.exec(rest.replace(/^\r/, ''));
    if (!m) break;
    row = m[0].trim();
    rest = rest.replace(/^\r/, '').slice(m[0].length);
  }
  return { rest: row === undefined ? line : rest.replace(/^\r/, ''), ...(row !== undefined ? { row } : {}) };
}

/** True when most non-empty lines of `text` carry curl's prefixes: the text is `curl -v` output. */
export function looksLikeCurl(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const prefixed = lines.filter((l) => /^[<>*] ?/.test(l) || MARKER.test(l.trimEnd())).length;
  return lines.some((l) => l.startsWith('> ')) && prefixed >= lines.length / 2;
}

export function parseCurl(text: string): CurlTranscript {
  const segments: { from: 'client' | 'server'; head: string; body: string[]; marked: number }[] = [];
  const info: string[] = [];
  const notes: string[] = [];
  const listed: { streamId?: number; fields: { name: string; value: string }[] }[] = [];
  let meter: string | undefined;
  let current: { from: 'client' | 'server'; head: string; headDone: boolean; body: string[]; marked: number } | undefined;
  const close = () => {
    if (!current) return;
    segments.push({ from: current.from, head: current.head, body: current.body, marked: current.marked });
    current = undefined;
  };
  const all = text.split('\n');
  let previous = '';
  for (let i = 0; i < all.length; i++) {
    const raw = all[i]!;
    const before = previous;
    if (raw.trim() !== '') previous = raw.replace(/\r$/, '');
    const cleaned = withoutMeter(raw.replace(/\r$/, ''));
    if (cleaned.row !== undefined) {
      if (cleaned.row !== '') meter = cleaned.row;
      if (cleaned.rest.trim() === '') continue;
    }
    const line = cleaned.rest;
    const prefix = line.slice(0, 2);
    if (prefix === '> ' || line === '>' || prefix === '< ' || line === '<') {
      const from = line.startsWith('>') ? 'client' : 'server';
      if (!current || current.from !== from || current.headDone) {
        close();
        current = { from, head: '', headDone: false, body: [], marked: 0 };
      }
      const content = line.slice(2);
      current.head += `${content}\r\n`;
      if (content === '') current.headDone = true;
      continue;
    }
    if (line.startsWith('* ') || line === '*') {
      const remark = line.slice(2);
      listedField(listed, remark);
      info.push(remark);
      continue;
    }
    const marker = MARKER.exec(line.trim());
    if (marker) {
      // Over TLS curl also marks each record it moves (the handshake's, and each record header's 5 bytes) beside
      // its remarks ("* TLSv1.3 (IN), TLS handshake, ..."): those are not a body. A body's markers follow its
      // head (or the body's previous marker) directly, and count bytes of the latest message if that side wrote
      // it ("}" the client's, "{" the server's); one after a remark, before any head, or after the other
      // side's head is TLS too.
      const side = line.trim().startsWith('}') ? 'client' : 'server';
      const latest = current ?? segments.at(-1);
      const nearRemark = before.startsWith('*') || /^\* (TLSv|SSLv|SSL )/.test(all[i + 1] ?? '');
      if (!nearRemark && latest?.from === side) latest.marked += Number(marker[1]);
      continue;
    }
    // curl's own error, the last thing it prints when a transfer fails ("curl: (52) Empty reply from server").
    const failed = /^curl: \((\d+)\) (.*)$/.exec(line);
    if (failed) {
      notes.push(`curl ended with error ${failed[1]}: ${failed[2]}.`);
      continue;
    }
    // Output of the transfer itself (the response body on standard output), after the last response head.
    const last = current ?? segments.at(-1);
    if (last && last.from === 'server') last.body.push(line);
  }
  close();
  return {
    segments: segments.map((s) => {
      // The body lines were split at LF: a body that ended without one (JSON from an API usually does) gains
      // nothing, and the empty line after a final LF is not part of it. The head keeps every CR LF.
      let printed = s.body.join('\n').replace(/\n$/, '');
      // curl -i writes the response head to standard output too, before the body: it is the head, not body.
      const echoed = s.head.replace(/\r\n/g, '\n');
      if (s.from === 'server' && echoed.length > 2 && printed.startsWith(echoed)) {
        printed = printed.slice(echoed.length);
        if (!notes.some((n) => n.includes('curl -i')))
          notes.push('curl -i wrote each response head to standard output as well: that copy is set aside, not read as body.');
      }
      const body = s.body.length > 0 && !(s.body.length === 1 && s.body[0] === '') && printed !== '' ? printed : undefined;
      return { from: s.from, head: s.head, text: s.head + (body ?? ''), ...(body !== undefined ? { body } : {}), marked: s.marked };
    }),
    listed,
    info,
    notes,
    ...(meter !== undefined ? { meter } : {}),
  };
}

export interface CurlMessage {
  readonly from: 'client' | 'server';
  /** As curl printed it: "GET /todos/1 HTTP/2", "HTTP/2 200". */
  readonly startLine: string;
  /** "HTTP/1.1", "HTTP/2". */
  readonly version: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly streamId?: number;
  /**
   * The fields: over HTTP/2 what went in the HEADERS frame, pseudo-header fields (RFC 9113 §8.3) first; a
   * request's come from curl's list when it printed one, else from its "> " lines.
   */
  readonly fields: readonly { readonly name: string; readonly value: string }[];
  readonly body: string;
}

const REQUEST = /^(\S+) (\S+) (HTTP\/[\d.]+)$/;
const STATUS = /^(HTTP\/[\d.]+) (\d{3})/;

/** The transcript's messages, read from curl's lines (not from bytes: over HTTP/2 there are none to read). */
export function curlMessages(t: CurlTranscript): CurlMessage[] {
  let requests = 0;
  return t.segments.map((s) => {
    const split = s.text.indexOf('\r\n\r\n');
    const head = split < 0 ? s.text : s.text.slice(0, split);
    const body = split < 0 ? '' : s.text.slice(split + 4);
    const [startLine = '', ...lines] = head.split('\r\n');
    const headers = lines.flatMap((l) => {
      const colon = l.indexOf(':');
      return colon > 0 ? [{ name: l.slice(0, colon), value: l.slice(colon + 1).trim() }] : [];
    });
    const start = startLine.trimEnd();
    if (s.from === 'client') {
      const m = REQUEST.exec(start);
      const version = m?.[3] ?? 'HTTP/1.1';
      const list = version === 'HTTP/2' ? t.listed[requests] : undefined;
      requests++;
      const derived = () => {
        // RFC 9113 §8.3.1: Host becomes :authority; the other names go lowercase (§8.2.1).
        const host = headers.find((h) => h.name.toLowerCase() === 'host')?.value;
        return [
          { name: ':method', value: m?.[1] ?? '' },
          { name: ':path', value: m?.[2] ?? '' },
          ...(host ? [{ name: ':authority', value: host }] : []),
          ...headers.filter((h) => h.name.toLowerCase() !== 'host').map((h) => ({ name: h.name.toLowerCase(), value: h.value })),
        ];
      };
      const fields = version !== 'HTTP/2' ? headers : list ? list.fields : derived();
      return {
        from: s.from,
        startLine: start,
        version,
        ...(m ? { method: m[1]!, path: m[2]! } : {}),
        ...(list?.streamId !== undefined ? { streamId: list.streamId } : {}),
        fields,
        body,
      };
    }
    const m = STATUS.exec(start);
    const version = m?.[1] ?? 'HTTP/1.1';
    const status = m ? Number(m[2]) : undefined;
    return {
      from: s.from,
      startLine: start,
      version,
      ...(status !== undefined ? { status } : {}),
      fields: version === 'HTTP/2' ? [{ name: ':status', value: String(status ?? '') }, ...headers] : headers,
      body,
    };
  });
}
