/**
 * Which of the inspector's formats a pasted text or dropped file is, with the reason in words (the page shows
 * it beside the format chooser, so a wrong guess is easy to spot and override).
 */
import { looksLikeCurl } from './curl';
import { looksLikeFrames, startsWithPreface } from './h2';
import { hexForm, parseHex, type HexForm } from './hex';

export type Format = 'http1' | 'curl' | 'h2' | 'hpack' | 'har';

export const FORMATS: readonly { readonly id: Format; readonly label: string }[] = [
  { id: 'http1', label: 'Raw HTTP/1.x' },
  { id: 'curl', label: 'curl -v output' },
  { id: 'h2', label: 'HTTP/2 frames (hex)' },
  { id: 'hpack', label: 'HPACK block (hex)' },
  { id: 'har', label: 'HAR file' },
];

export const HEX_FORM_LABELS: Readonly<Record<HexForm, string>> = {
  stream: 'a continuous hex string (Wireshark "Copy as Hex Stream", xxd -p)',
  xxd: 'an xxd dump',
  od: 'an od -x dump (16-bit little-endian words, swapped back)',
};

export type Detection = { readonly format: Format; readonly reason: string } | { readonly format: null; readonly reason: string };

const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S+( HTTP\/\d(\.\d)?)?\r?$/;
const ASCII_HTTP = /^(HTTP\/\d|[A-Z]{3,10} \S)/;

export function detect(text: string): Detection {
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
  if (looksLikeCurl(trimmed)) return { format: 'curl', reason: 'Its lines start with curl -v\'s "> ", "< " and "* " marks.' };
  const firstLine = trimmed.split('\n', 1)[0]!;
  if (firstLine.startsWith('HTTP/') || REQUEST_LINE.test(firstLine)) {
    return { format: 'http1', reason: `It starts with an HTTP/1 ${firstLine.startsWith('HTTP/') ? 'status line' : 'request line'}.` };
  }
  const form = hexForm(trimmed);
  const hex = parseHex(trimmed, form);
  if (hex.ok) {
    const { bytes } = hex;
    const start = String.fromCharCode(...bytes.subarray(0, 16));
    if (startsWithPreface(bytes)) return { format: 'h2', reason: `It is ${HEX_FORM_LABELS[form]} that starts with the HTTP/2 connection preface.` };
    if (ASCII_HTTP.test(start)) return { format: 'http1', reason: `It is ${HEX_FORM_LABELS[form]} of HTTP/1 text.` };
    if (looksLikeFrames(bytes)) return { format: 'h2', reason: `It is ${HEX_FORM_LABELS[form]} that reads as a run of whole HTTP/2 frames.` };
    return { format: 'hpack', reason: `It is ${HEX_FORM_LABELS[form]} that does not read as HTTP/2 frames, so it is taken as an HPACK field block.` };
  }
  if (/^[0-9a-fA-F\s:,x]+$/.test(trimmed.slice(0, 400))) return { format: 'h2', reason: `It looks like hex, but: ${hex.message}` };
  return {
    format: null,
    reason: `Not recognized: it is not JSON (HAR), curl -v output, an HTTP/1 message (the first line "${firstLine.slice(0, 60)}" is neither a request line nor a status line) or hex. Choose the format to see what the reader makes of it.`,
  };
}
