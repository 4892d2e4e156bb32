/**
 * `curl --trace-ascii FILE` and `curl --trace FILE` logs back into the bytes curl sent and received. Unlike
 * `-v`, a trace holds the bodies too. Each piece curl hands to or gets from the connection is a block:
 *
 *   => Send header, 152 bytes (0x98)        (or "<= Recv data", "=> Send SSL data"; "== Info: ..." remarks)
 *   0000: POST /post HTTP/1.1                (--trace-ascii: up to 64 characters a row)
 *   0000: 50 4f 53 54 20 2f 70 6f ... POST /p (--trace: 16 bytes a row in hex, then as characters)
 *
 * With --trace-time each block line starts with the time of day. In --trace-ascii rows a CR LF pair ends the
 * row and is not printed, and every byte outside printable ASCII is printed as '.'; the row offsets still count
 * every byte, so the CR LF pairs come back exactly (a row whose next row starts two bytes further than its
 * characters reach ended in CR LF) and each body keeps its exact length. The bytes that were printed as '.'
 * cannot come back: they stay '.', and the result says so. A --trace log holds every byte exactly.
 *
 * The result has the shape of a `curl -v` transcript (curl.ts), with each body as the bytes curl moved.
 */
import type { CurlSegment, CurlTranscript, ListedFields } from './curl';
import { listedField } from './curl';

const BLOCK = /^(?:(\d\d:\d\d:\d\d\.\d+) )?(=>|<=) (Send|Recv) (header|data|SSL data), (\d+) bytes \(0x[0-9a-fA-F]+\)\s*$/;
const INFO = /^(?:\d\d:\d\d:\d\d\.\d+ )?== Info: ?(.*?)\s*$/;
const ROW = /^([0-9a-fA-F]{4,}): (.*)$/;
const HEX_ROW = /^(?:[0-9a-fA-F]{2} ){1,16}/;

/** True when the text is a curl --trace or --trace-ascii log: its block lines are there. */
export function looksLikeTrace(text: string): boolean {
  const head = text.slice(0, 20_000);
  return /^(?:\d\d:\d\d:\d\d\.\d+ )?(=> Send|<= Recv) (header|data), \d+ bytes \(0x/m.test(head);
}

interface Block {
  /** The time of day --trace-time printed before the block line, as written. */
  readonly time?: string;
  readonly from: 'client' | 'server';
  readonly kind: 'header' | 'data' | 'SSL data';
  readonly size: number;
  /** 1-based line of the block's first line, for messages. */
  readonly line: number;
  readonly rows: { offset: number; text: string; line: number }[];
}

export interface TraceTranscript extends CurlTranscript {
  /** 'ascii': --trace-ascii (bytes outside printable ASCII came back as '.'); 'hex': --trace (exact). */
  readonly form: 'ascii' | 'hex';
  /** Where the rows do not add up to the length their block line states, in words with the line. */
  readonly problems: readonly { message: string; where: string }[];
  /** Bytes printed as '.' in bodies, which may have been any byte outside printable ASCII (--trace-ascii). */
  readonly dots: number;
  /** With --trace-time: when curl wrote its first request bytes and read the first and last response bytes. */
  readonly clock?: { readonly sent: string; readonly firstReceived?: string; readonly lastReceived?: string };
}

export function parseTrace(text: string): TraceTranscript {
  const blocks: Block[] = [];
  const info: string[] = [];
  const lines = text.split('\n');
  let current: Block | undefined;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const block = BLOCK.exec(line);
    if (block) {
      current = {
        ...(block[1] ? { time: block[1] } : {}),
        from: block[2] === '=>' ? 'client' : 'server',
        kind: block[4] as Block['kind'],
        size: Number(block[5]),
        line: i + 1,
        rows: [],
      };
      blocks.push(current);
      return;
    }
    const remark = INFO.exec(line);
    if (remark) {
      info.push(remark[1]!);
      current = undefined;
      return;
    }
    const row = ROW.exec(line);
    // Anything else (a body curl wrote to standard output with --trace-ascii -) is not part of the trace.
    if (row && current) current.rows.push({ offset: Number.parseInt(row[1]!, 16), text: row[2]!, line: i + 1 });
  });
  const hex = blocks.some((b) => b.rows.length > 0 && b.size > 0 && isHexRow(b.rows[0]!.text, Math.min(16, b.size)));
  const problems: { message: string; where: string }[] = [];
  let dots = 0;
  const segments: { from: 'client' | 'server'; head: string; body: number[]; headDone: boolean; moved: number }[] = [];
  const ssl = { client: 0, server: 0 };
  for (const b of blocks) {
    if (b.kind === 'SSL data') {
      ssl[b.from] += b.size;
      continue;
    }
    const bytes = hex ? hexBytes(b, problems) : asciiBytes(b, problems);
    let last = segments.at(-1);
    if (b.kind === 'header') {
      if (!last || last.from !== b.from || last.headDone) {
        last = { from: b.from, head: '', body: [], headDone: false, moved: 0 };
        segments.push(last);
      }
      last.head += String.fromCharCode(...bytes);
      if (last.head === '\r\n' || last.head.endsWith('\r\n\r\n')) last.headDone = true;
    } else {
      if (!last || last.from !== b.from) {
        // Data with no head before it from that side: the rest of an earlier message, or a trace that starts late.
        last = { from: b.from, head: '', body: [], headDone: true, moved: 0 };
        segments.push(last);
      }
      if (!hex) for (const byte of bytes) if (byte === 0x2e) dots++;
      for (const byte of bytes) last.body.push(byte);
      last.moved += bytes.length;
    }
  }
  // A request's or response's fields as curl listed them before an HTTP/2 HEADERS frame (curl.ts).
  const listed: ListedFields[] = [];
  for (const remark of info) listedField(listed, remark);
  const notes: string[] = [];
  if (ssl.client + ssl.server > 0)
    notes.push(
      `curl also traced ${ssl.client + ssl.server} bytes of TLS records ("Send SSL data" / "Recv SSL data": handshake and record headers), which are not read here; the header and data blocks are the decrypted HTTP.`,
    );
  const out: CurlSegment[] = segments
    .filter((s) => s.head !== '' || s.body.length > 0)
    .map((s) => {
      const wire = Uint8Array.from(s.body);
      return {
        from: s.from,
        head: s.head,
        text: s.head + String.fromCharCode(...wire.subarray(0, 65_536)),
        ...(wire.length > 0 ? { body: new TextDecoder().decode(wire) } : {}),
        marked: s.moved,
        wire,
      };
    });
  const timed = blocks.filter((b) => b.time !== undefined && b.kind !== 'SSL data');
  const sent = timed.find((b) => b.from === 'client');
  const received = timed.filter((b) => b.from === 'server' && sent && b.line > sent.line);
  const clock = sent?.time
    ? { sent: sent.time, ...(received.length > 0 ? { firstReceived: received[0]!.time!, lastReceived: received.at(-1)!.time! } : {}) }
    : undefined;
  return { segments: out, listed, info, notes, form: hex ? 'hex' : 'ascii', problems, dots, ...(clock ? { clock } : {}) };
}

/** Milliseconds from time of day `a` to `b` ("04:45:38.233459"), across midnight if need be. */
function msBetween(a: string, b: string): number {
  const ms = (t: string) => {
    const [h, m, s] = t.split(':');
    return (Number(h) * 3600 + Number(m) * 60 + Number(s)) * 1000;
  };
  const d = ms(b) - ms(a);
  return d < 0 ? d + 86_400_000 : d;
}

/** What curl's --trace-time clock says about the first exchange, in words; undefined without times. */
export function clockNote(t: TraceTranscript): string | undefined {
  if (!t.clock) return undefined;
  const { sent, firstReceived, lastReceived } = t.clock;
  if (!firstReceived || !lastReceived) return `curl's clock (--trace-time): it wrote its first request bytes at ${sent} and read no response.`;
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `curl's clock (--trace-time): first request bytes written at ${sent}, first response bytes read at ${firstReceived} (${ms(msBetween(sent, firstReceived))} later: the time to first byte as curl saw it, the server's think time and one round trip), last at ${lastReceived} (${ms(msBetween(sent, lastReceived))}).`;
}

function isHexRow(text: string, count: number): boolean {
  const m = HEX_ROW.exec(text);
  return m !== null && m[0].length >= count * 3;
}

/** A --trace block's bytes: each row's hex pairs, at most 16, and no more than the block's size. */
function hexBytes(b: Block, problems: { message: string; where: string }[]): number[] {
  const out: number[] = [];
  for (const row of b.rows) {
    if (row.offset !== out.length) {
      problems.push({ message: `this row starts at byte ${row.offset} of its block, but ${out.length} bytes came before it`, where: `line ${row.line}` });
      break;
    }
    const want = Math.min(16, b.size - row.offset);
    const m = HEX_ROW.exec(row.text);
    const pairs = m ? m[0].trim().split(' ').slice(0, want) : [];
    if (pairs.length < want) {
      problems.push({ message: `this row should hold ${want} bytes in hex, but holds ${pairs.length}`, where: `line ${row.line}` });
      break;
    }
    for (const p of pairs) out.push(Number.parseInt(p, 16));
  }
  if (out.length !== b.size && problems.length === 0)
    problems.push({ message: `the block says ${b.size} bytes, but its rows hold ${out.length}`, where: `line ${b.line}` });
  return out;
}

/**
 * A --trace-ascii block's bytes. Each row's offset says where it starts; the gap to the next row (or to the
 * block's end) is the row's characters, plus 2 when the row ended in a CR LF curl did not print.
 */
function asciiBytes(b: Block, problems: { message: string; where: string }[]): number[] {
  const out: number[] = [];
  b.rows.forEach((row, k) => {
    const next = b.rows[k + 1]?.offset ?? b.size;
    const span = next - row.offset;
    for (let i = 0; i < row.text.length; i++) {
      const c = row.text.charCodeAt(i);
      out.push(c < 0x80 ? c : 0x2e);
    }
    if (span === row.text.length + 2) out.push(0x0d, 0x0a);
    else if (span !== row.text.length) {
      problems.push({
        message: `this row holds ${row.text.length} characters, but the next row starts ${span} bytes after it (${row.text.length} or ${row.text.length + 2} with a CR LF); the row was edited, or the log is not curl's`,
        where: `line ${row.line}`,
      });
    }
  });
  if (b.rows.length === 0 && b.size > 0) problems.push({ message: `the block says ${b.size} bytes, but no rows follow it`, where: `line ${b.line}` });
  return out;
}
