/**
 * Hex dumps back into bytes. Three tools print the forms readers paste:
 *
 * - a continuous hex string: Wireshark's "Copy as Hex Stream", `xxd -p` (wrapped at 60 digits), or any
 *   whitespace-separated pairs;
 * - `xxd`: `00000010: 0d0a 534d 0d0a  ..SM..` (offset, colon, groups of 2 bytes by default or of `-g` bytes,
 *   then two spaces and the bytes as ASCII, which is ignored);
 * - `od -x`: `0000020 0a0d 4d53` (offset, then 16-bit words). od prints each word in the machine's byte
 *   order, little-endian on x86 and ARM, so every word is swapped back; a line of `*` stands for lines
 *   repeating the one before, and the last line holds only the total length, which says whether the last word
 *   carries one byte or two. Offsets are octal unless `-A x` or `-A d` chose hex or decimal.
 *
 * Errors name the line and column of the first character that does not belong, so a reader can find it.
 */

export type HexForm = 'stream' | 'xxd' | 'od';

export type HexResult =
  | { readonly ok: true; readonly bytes: Uint8Array; readonly form: HexForm }
  | { readonly ok: false; readonly form: HexForm; readonly message: string; readonly line: number; readonly column: number };

const XXD_LINE = /^([0-9a-fA-F]{4,16}):\s/;
const OD_LINE = /^([0-9a-fA-F]{6,16})((?:\s+[0-9a-fA-F]{4})*)\s*$/;

/** Which form `text` is in, judged from its first non-empty line. */
export function hexForm(text: string): HexForm {
  const first =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  if (XXD_LINE.test(first)) return 'xxd';
  // od's first line starts with an all-zero offset and then 16-bit words; a hex stream has no spaces inside
  // groups of four after a 7-digit offset.
  if (/^0{6,16}\s+[0-9a-fA-F]{4}(\s|$)/.test(first)) return 'od';
  return 'stream';
}

function fail(form: HexForm, message: string, line: number, column: number): HexResult {
  return { ok: false, form, message, line, column };
}

export function parseHex(text: string, form: HexForm = hexForm(text)): HexResult {
  if (form === 'xxd') return parseXxd(text);
  if (form === 'od') return parseOd(text);
  return parseStream(text);
}

function parseStream(text: string): HexResult {
  const lines = text.split('\n');
  const digits: number[] = [];
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!;
    for (let c = 0; c < line.length; c++) {
      const ch = line.charCodeAt(c);
      // "0x" before a byte, and the separators people use between bytes (space, comma, colon).
      if (ch === 0x30 && (line[c + 1] === 'x' || line[c + 1] === 'X') && (c === 0 || /[\s,:]/.test(line[c - 1]!))) {
        c++;
        continue;
      }
      if (ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x2c || ch === 0x3a) continue;
      const v = hexValue(ch);
      if (v < 0) return fail('stream', `"${line[c]}" is not a hex digit.`, l + 1, c + 1);
      digits.push(v);
    }
  }
  if (digits.length === 0) return fail('stream', 'There are no hex digits.', 1, 1);
  if (digits.length % 2 !== 0) {
    const at = lastDigit(lines);
    return fail('stream', `There is an odd number of hex digits (${digits.length}): the last byte is missing a digit.`, at.line, at.column);
  }
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!;
  return { ok: true, bytes, form: 'stream' };
}

function lastDigit(lines: readonly string[]): { line: number; column: number } {
  for (let l = lines.length - 1; l >= 0; l--) {
    const line = lines[l]!;
    for (let c = line.length - 1; c >= 0; c--) if (hexValue(line.charCodeAt(c)) >= 0) return { line: l + 1, column: c + 1 };
  }
  return { line: 1, column: 1 };
}

function hexValue(ch: number): number {
  if (ch >= 0x30 && ch <= 0x39) return ch - 0x30;
  if (ch >= 0x61 && ch <= 0x66) return ch - 0x57;
  if (ch >= 0x41 && ch <= 0x46) return ch - 0x37;
  return -1;
}

function parseXxd(text: string): HexResult {
  const out: number[] = [];
  const lines = text.split('\n');
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const m = XXD_LINE.exec(line);
    if (!m) return fail('xxd', 'An xxd line starts with an offset and a colon ("00000010: ").', l + 1, 1);
    const offset = parseInt(m[1]!, 16);
    if (offset !== out.length) {
      return fail('xxd', `This line says it starts at byte ${offset}, but ${out.length} bytes came before it: a line is missing or was edited.`, l + 1, 1);
    }
    const from = m[0].length;
    // The hex part ends at the two spaces before the ASCII column (or at the end of the line).
    const gap = line.indexOf('  ', from);
    const hexPart = gap < 0 ? line.slice(from) : line.slice(from, gap);
    for (let c = 0; c < hexPart.length; c++) {
      const ch = hexPart.charCodeAt(c);
      if (ch === 0x20) continue;
      const hi = hexValue(ch);
      const lo = hexValue(hexPart.charCodeAt(c + 1));
      if (hi < 0 || lo < 0) return fail('xxd', `"${hexPart.slice(c, c + 2)}" is not a byte in hex.`, l + 1, from + c + 1 + (hi < 0 ? 0 : 1));
      out.push(hi * 16 + lo);
      c++;
    }
  }
  if (out.length === 0) return fail('xxd', 'The xxd dump holds no bytes.', 1, 1);
  return { ok: true, bytes: Uint8Array.from(out), form: 'xxd' };
}

function parseOd(text: string): HexResult {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .map((l, i) => ({ text: l, number: i + 1 }))
    .filter((l) => l.text.trim() !== '');
  // The radix of the offsets: the second offset is 16 bytes on, which reads "20" in octal, "10" in hex and
  // "16" in decimal. A dump of one line has only offset 0 and its total length; octal is od's default.
  const offsets = lines.filter((l) => l.text.trim() !== '*').map((l) => l.text.trim().split(/\s+/)[0]!);
  const second = lines[1]?.text.trim() === '*' ? undefined : offsets[1];
  const radix = offsets.some((o) => /[a-fA-F]/.test(o))
    ? 16
    : second !== undefined && /^0*10$/.test(second)
      ? 16
      : second !== undefined && /^0*16$/.test(second)
        ? 10
        : 8;
  const words: { value: number; line: number }[] = [];
  let total: number | undefined;
  let previous: number[] | undefined;
  let repeating = false;
  for (const { text: line, number } of lines) {
    if (line.trim() === '*') {
      repeating = true;
      continue;
    }
    const m = OD_LINE.exec(line.trim());
    if (!m) {
      const bad = line.search(/[^0-9a-fA-F\s]/);
      return fail('od', 'An od -x line is an offset followed by groups of four hex digits.', number, bad < 0 ? 1 : bad + 1);
    }
    const offset = parseInt(m[1]!, radix);
    if (Number.isNaN(offset) || (radix === 8 && /[89a-fA-F]/.test(m[1]!)))
      return fail('od', `The offset "${m[1]}" is not a number in base ${radix}.`, number, 1);
    if (repeating && previous) {
      // "*": the previous line's words repeat until this offset.
      while (words.length * 2 < offset) for (const w of previous) words.push({ value: w, line: number });
      repeating = false;
    }
    const values =
      m[2]!.trim() === ''
        ? []
        : m[2]!
            .trim()
            .split(/\s+/)
            .map((w) => parseInt(w, 16));
    // The closing line holds only the length, which is odd when the last word carried one byte.
    if (values.length === 0 && (offset === words.length * 2 || offset === words.length * 2 - 1)) {
      total = offset;
      continue;
    }
    if (offset !== words.length * 2) {
      return fail(
        'od',
        `This line says it starts at byte ${offset}, but ${words.length * 2} bytes came before it: a line is missing or was edited.`,
        number,
        1,
      );
    }
    for (const value of values) words.push({ value, line: number });
    previous = values;
  }
  if (words.length === 0) return fail('od', 'The od dump holds no bytes.', 1, 1);
  const bytes = new Uint8Array(words.length * 2);
  words.forEach(({ value }, i) => {
    // Little-endian words: the low byte came first in the file.
    bytes[2 * i] = value & 0xff;
    bytes[2 * i + 1] = value >> 8;
  });
  // The final offset-only line is the length: odd when the last word holds one byte (od pads it with 0).
  if (total !== undefined && (total === bytes.length - 1 || total === bytes.length)) return { ok: true, bytes: bytes.subarray(0, total), form: 'od' };
  return { ok: true, bytes, form: 'od' };
}
