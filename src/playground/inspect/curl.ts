/**
 * `curl -v` output back into the bytes on the wire. curl prints the request head it wrote with "> " before
 * each line, the response head it read with "< ", and its own remarks with "* "; with standard output
 * redirected it marks each body it sent or received as "} [19 bytes data]" or "{ [41 bytes data]" instead of
 * printing it. The response body itself goes to standard output, so in `curl -v URL 2>&1` it follows curl's
 * remarks, unprefixed.
 *
 * A head is rebuilt with CR LF after every line (HTTP/1.1 requires it, RFC 9112 §2.2; curl prints the CR,
 * a text box drops it). An unprefixed text after a response head is taken as that response's body. A
 * request body is never printed by `-v` (use `--trace-ascii` for that), so a request that announced one is
 * cut short, and the result says so instead of inventing its bytes.
 */

export interface CurlSegment {
  readonly from: 'client' | 'server';
  readonly text: string;
}

/** One request's fields as curl listed them before sending its HEADERS frame (HTTP/2 only). */
export interface ListedFields {
  readonly streamId?: number;
  readonly fields: readonly { readonly name: string; readonly value: string }[];
}

export interface CurlTranscript {
  readonly segments: readonly CurlSegment[];
  /** HTTP/2 requests' field lists, in order (see LISTED). */
  readonly listed: readonly ListedFields[];
  /** curl's "* " remarks, in order. */
  readonly info: readonly string[];
  /** What curl did not print, in words. */
  readonly notes: readonly string[];
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

/** True when most non-empty lines of `text` carry curl's prefixes: the text is `curl -v` output. */
export function looksLikeCurl(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const prefixed = lines.filter((l) => /^[<>*] ?/.test(l) || MARKER.test(l.trimEnd())).length;
  return lines.some((l) => l.startsWith('> ')) && prefixed >= lines.length / 2;
}

export function parseCurl(text: string): CurlTranscript {
  const segments: { from: 'client' | 'server'; text: string }[] = [];
  const info: string[] = [];
  const notes: string[] = [];
  const listed: { streamId?: number; fields: { name: string; value: string }[] }[] = [];
  let current: { from: 'client' | 'server'; text: string; headDone: boolean; body: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const body = current.body.join('\n');
    segments.push({ from: current.from, text: current.text + body });
    current = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const prefix = line.slice(0, 2);
    if (prefix === '> ' || line === '>' || prefix === '< ' || line === '<') {
      const from = line.startsWith('>') ? 'client' : 'server';
      if (!current || current.from !== from || current.headDone) {
        close();
        current = { from, text: '', headDone: false, body: [] };
      }
      const content = line.slice(2);
      current.text += `${content}\r\n`;
      if (content === '') current.headDone = true;
      continue;
    }
    if (line.startsWith('* ') || line === '*') {
      const remark = line.slice(2);
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
      info.push(remark);
      continue;
    }
    const marker = MARKER.exec(line.trim());
    if (marker) {
      if (line.trim().startsWith('}'))
        notes.push(
          `curl sent a request body of ${marker[1]} bytes but did not print it (curl -v never does; --trace-ascii would): that request is shown without it.`,
        );
      continue;
    }
    // Output of the transfer itself (the response body on standard output), after the last response head.
    const last = current ?? segments.at(-1);
    if (last && last.from === 'server') {
      if (current) current.body.push(line);
      else segments[segments.length - 1] = { from: 'server', text: `${last.text}${line}` };
    }
  }
  close();
  // The body lines were split at LF: a body that ended without one (JSON from an API usually does) gains nothing,
  // and a trailing empty line from the paste is not part of it.
  return { segments: segments.map((s) => (s.from === 'server' ? { ...s, text: s.text.replace(/\n$/, '') } : s)), listed, info, notes };
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
