/**
 * Which of the inspector's formats a pasted text or dropped file is, with the reason in words (the page shows
 * it beside the format chooser, so a wrong guess is easy to spot and override).
 */
import { looksLikeCurl } from './curl';
import { looksLikeTrace } from './trace';
import { looksLikeFrames, startsWithPreface } from './h2';
import { hexForm, parseHex, type HexForm } from './hex';
import { readPacket } from './packet';
import { looksLikeQuicInitial } from './quic';
import { looksLikeHttp3Sections } from './quic-h3';

export type Format = 'http1' | 'curl' | 'h2' | 'hpack' | 'har' | 'pcap' | 'quic' | 'h3';

export const FORMATS: readonly { readonly id: Format; readonly label: string }[] = [
  { id: 'http1', label: 'Raw HTTP/1.x' },
  { id: 'curl', label: 'curl -v or --trace-ascii output' },
  { id: 'h2', label: 'HTTP/2 frames (hex)' },
  { id: 'hpack', label: 'HPACK block (hex)' },
  { id: 'har', label: 'HAR file' },
  { id: 'pcap', label: 'pcap / pcapng capture' },
  { id: 'quic', label: 'QUIC datagrams (hex)' },
  { id: 'h3', label: 'HTTP/3 streams and QPACK (hex)' },
];

export const HEX_FORM_LABELS: Readonly<Record<HexForm, string>> = {
  stream: 'a continuous hex string (Wireshark "Copy as Hex Stream", xxd -p)',
  xxd: 'an xxd dump',
  od: 'an od -x dump (16-bit little-endian words, swapped back)',
};

/** Why a whole packet's payload was read as it was: the payload's own detection, said of the payload. */
export function packetReason(form: HexForm, layers: string, length: number, payloadReason: string): string {
  const tail = payloadReason.replace(/^It is (a continuous hex string \([^)]*\)|an xxd dump|an od -x dump \([^)]*\)) /, '');
  const said = tail.startsWith('of ') ? `is ${tail.slice(3)}` : tail.startsWith('that ') ? tail.slice(5) : `: ${tail}`;
  return `It is ${HEX_FORM_LABELS[form]} of a whole packet (${layers}), whose ${length}-byte TCP payload ${said}`;
}

export type Detection = { readonly format: Format; readonly reason: string } | { readonly format: null; readonly reason: string };

/** Which capture file a dropped file is, from its first four bytes; null when it is not one. */
export type CaptureKind = { readonly kind: 'pcap'; readonly littleEndian: boolean; readonly nanoseconds: boolean } | { readonly kind: 'pcapng' };

/**
 * The capture-file hook: the pcap reader (capture/) takes every file this names. A pcap file starts with
 * its magic number written in the writer's byte order: a1b2c3d4 (microsecond timestamps) or a1b23c4d
 * (nanosecond), read as d4c3b2a1 / 4d3cb2a1 when the writer was little-endian (tcpdump -w on x86).
 * A pcapng file starts with a Section Header Block, block type 0a0d0d0a, the same in either byte order.
 */
export function captureKind(bytes: Uint8Array): CaptureKind | null {
  if (bytes.length < 4) return null;
  const magic = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  switch (magic) {
    case 0xa1b2c3d4:
      return { kind: 'pcap', littleEndian: false, nanoseconds: false };
    case 0xd4c3b2a1:
      return { kind: 'pcap', littleEndian: true, nanoseconds: false };
    case 0xa1b23c4d:
      return { kind: 'pcap', littleEndian: false, nanoseconds: true };
    case 0x4d3cb2a1:
      return { kind: 'pcap', littleEndian: true, nanoseconds: true };
    case 0x0a0d0d0a:
      return { kind: 'pcapng' };
    default:
      return null;
  }
}

/** A pasted or linked pcap arrives as text, one character per byte (latin1): its first four characters. */
function latin1Head(text: string): Uint8Array {
  const head = new Uint8Array(Math.min(4, text.length));
  for (let i = 0; i < head.length; i++) head[i] = text.charCodeAt(i) & 0xff;
  return text.length >= 4 && [...text.slice(0, 4)].every((c) => c.charCodeAt(0) <= 0xff) ? head : new Uint8Array(0);
}

const CAPTURE_WORDS: Readonly<Record<string, string>> = {
  pcap: 'a pcap capture file (tcpdump -w, Wireshark)',
  pcapng: 'a pcapng capture file (Wireshark, tcpdump -w on newer systems)',
};

const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S+( HTTP\/\d(\.\d)?)?\r?$/;
const ASCII_HTTP = /^(HTTP\/\d|[A-Z]{3,10} \S)/;

export function detect(text: string, bytes?: Uint8Array): Detection {
  const capture = captureKind(bytes ?? latin1Head(text));
  if (capture) {
    const order =
      capture.kind === 'pcap' ? `, ${capture.littleEndian ? 'little' : 'big'}-endian, ${capture.nanoseconds ? 'nano' : 'micro'}second timestamps` : '';
    return { format: 'pcap', reason: `It is ${CAPTURE_WORDS[capture.kind]}: its first four bytes are the ${capture.kind} magic number${order}.` };
  }
  const trimmed = text.trimStart();
  if (trimmed === '') return { format: null, reason: 'The input is empty.' };
  if (trimmed.startsWith('{')) return { format: 'har', reason: 'It is JSON, which is how HAR files are written.' };
  if (/^\[\s*\d+\.\d+\] (send|recv|Connected)/m.test(trimmed)) {
    return {
      format: null,
      reason:
        'This looks like the log nghttp -v prints: frames already decoded into text, without their bytes. Save the same run with nghttp --har=out.har and drop that file here, or capture the bytes (Wireshark, or a proxy) and paste them as hex.',
    };
  }
  if (looksLikeTrace(trimmed))
    return {
      format: 'curl',
      reason: 'Its blocks start "=> Send header" and "<= Recv data": a curl --trace-ascii (or --trace) log, which holds the bodies too.',
    };
  if (looksLikeCurl(trimmed)) return { format: 'curl', reason: 'Its lines start with curl -v\'s "> ", "< " and "* " marks.' };
  const firstLine = trimmed.split('\n', 1)[0]!;
  if (firstLine.startsWith('HTTP/') || REQUEST_LINE.test(firstLine)) {
    return { format: 'http1', reason: `It starts with an HTTP/1 ${firstLine.startsWith('HTTP/') ? 'status line' : 'request line'}.` };
  }
  if (looksLikeHttp3Sections(trimmed))
    return {
      format: 'h3',
      reason: 'It starts with a stream label (encoder:, decoder:, control:, request N: or fields N:): HTTP/3 stream bytes and QPACK in hex.',
    };
  // QUIC datagrams (quic.ts) may start with the client's first DCID, for a server Initial pasted alone.
  if (/^(original\s+)?dcid\s*[:=]\s*[0-9a-fA-F]*\s*\n/i.test(trimmed))
    return { format: 'quic', reason: "It starts with a dcid: line, the client's first Destination Connection ID for reading QUIC Initials." };
  const form = hexForm(trimmed);
  const hex = parseHex(trimmed, form);
  if (hex.ok) {
    const { bytes } = hex;
    const packet = readPacket(bytes);
    if (packet && !packet.ok && packet.udp && looksLikeQuicInitial(packet.udp.payload))
      return {
        format: 'quic',
        reason: `It is ${HEX_FORM_LABELS[form]} of a whole packet (${packet.udp.layers}) whose payload starts with a QUIC version 1 Initial packet.`,
      };
    if (packet && !packet.ok) return { format: null, reason: packet.message };
    if (packet?.ok) {
      const { payload, link, ip } = packet.packet;
      const inner = payload.length > 0 ? detect([...payload].map((b) => b.toString(16).padStart(2, '0')).join('')) : undefined;
      return inner?.format
        ? { format: inner.format, reason: packetReason(form, `${link}, IPv${ip}, TCP`, payload.length, inner.reason) }
        : {
            format: null,
            reason: `It is ${HEX_FORM_LABELS[form]} of a whole packet (${link}, IPv${ip}, TCP) with ${payload.length > 0 ? 'a payload that is not HTTP' : 'no TCP payload'}.`,
          };
    }
    if (looksLikeQuicInitial(bytes))
      return { format: 'quic', reason: `It is ${HEX_FORM_LABELS[form]} that starts with a QUIC version 1 Initial packet (RFC 9000 §17.2.2).` };
    const start = String.fromCharCode(...bytes.subarray(0, 16));
    if (startsWithPreface(bytes)) return { format: 'h2', reason: `It is ${HEX_FORM_LABELS[form]} that starts with the HTTP/2 connection preface.` };
    if (ASCII_HTTP.test(start)) return { format: 'http1', reason: `It is ${HEX_FORM_LABELS[form]} of HTTP/1 text.` };
    if (looksLikeFrames(bytes)) return { format: 'h2', reason: `It is ${HEX_FORM_LABELS[form]} that reads as a run of whole HTTP/2 frames.` };
    return { format: 'hpack', reason: `It is ${HEX_FORM_LABELS[form]} that does not read as HTTP/2 frames, so it is taken as an HPACK field block.` };
  }
  // An xxd dump with a typo: its character column is not hex, but its lines say what it is.
  if (form !== 'stream' || /^[0-9a-fA-F\s:,x]+$/.test(trimmed.slice(0, 400)))
    return { format: 'h2', reason: `It looks like ${form === 'stream' ? 'hex' : HEX_FORM_LABELS[form]}, but: ${hex.message}` };
  return {
    format: null,
    reason: `Not recognized: it is not JSON (HAR), curl -v output, an HTTP/1 message (the first line "${firstLine.slice(0, 60)}" is neither a request line nor a status line) or hex. Choose the format to see what the reader makes of it.`,
  };
}
