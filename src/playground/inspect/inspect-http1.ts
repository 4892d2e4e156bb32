/**
 * The inspector's reading of an HTTP/1 conversation (http1.ts reads the bytes): pasted text, hex or a file as
 * bytes, both engines' verdicts on each direction, and the exchanges a replay answers with. curl's transcripts
 * (inspect-curl.ts) and packets and captures (inspect.ts) come here for the same reading.
 */
import { HEX_FORM_LABELS } from './detect';
import { countOf } from './words';
import { parseHex } from './hex';
import { directions, machineSteps, splitConversation, type Restored, verdicts, type Segment } from './http1';
import type { ReplayExchange } from './replay';
import { http1Events, recordingOf } from './to-recording';
import { Http1Reader } from 'roundtrip/wire';
import { type Body, type InspectInput, type Problem, safePath, untimed } from './inspect-result';

const utf8 = new TextEncoder();

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

export function http1(input: InspectInput): Body {
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

export function conversation(segments: Segment[], notes: string[]): Body {
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

export function http1Exchanges(segments: Segment[]): ReplayExchange[] {
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
