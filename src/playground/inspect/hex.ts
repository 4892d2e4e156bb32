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
  const lines = text
    .slice(0, 4096)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, 8);
  const first = lines[0] ?? '';
  if (XXD_LINE.test(first)) return 'xxd';
  // A typo in the first line's offset or colon: most lines still say xxd (the error is then located there).
  if (lines.length >= 2 && lines.filter((l) => XXD_LINE.test(l)).length * 2 >= lines.length) return 'xxd';
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

/**
 * xxd's lines: the offset in hex and a colon; groups of hex digits, each as long as the others (-g); two spaces;
 * then each byte as a character ('.' for bytes outside printable ASCII). Every part is checked against the
 * others, so a one-character typo is found where it is: an offset that does not continue the count, a group
 * of the wrong length, a character that is not hex, a line with a byte too many or too few, or a hex digit
 * that no longer matches the character column beside it.
 */
function parseXxd(text: string): HexResult {
  const out: number[] = [];
  const lines = text.split('\n');
  const parsed = lines.map((l) => xxdParts(l.replace(/\r$/, '')));
  // The group length and the bytes a line holds: what most lines say (xxd's -g and -c).
  const mode = (values: number[]) => {
    const counts = new Map<number, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0];
  };
  const full = parsed.filter((p): p is XxdParts => p !== undefined && p.groups.length > 1);
  const groupLength = mode(full.flatMap((p) => p.groups.slice(0, -1).map((g) => g.text.length)));
  const perLine = mode(full.map((p) => p.groups.reduce((n, g) => n + g.text.length, 0) / 2));
  const last = lines.reduce((n, l, i) => (l.trim() !== '' ? i : n), -1);
  const asciiAt = mode(full.filter((p) => p.groups.reduce((n, g) => n + g.text.length, 0) / 2 === perLine).map((p) => p.asciiColumn - 1));
  for (let l = 0; l < lines.length; l++) {
    const line = lines[l]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const parts = l === last && asciiAt !== undefined ? xxdParts(line, asciiAt) : parsed[l];
    if (!parts) {
      const bad = line.search(/[^0-9a-fA-F]/);
      return fail('xxd', 'An xxd line starts with its offset in hex and a colon ("00000010: ").', l + 1, bad < 0 ? line.length + 1 : bad + 1);
    }
    if (parts.offset !== out.length) {
      const expected = out.length.toString(16).padStart(parts.offsetText.length, '0');
      const differs = [...parts.offsetText.toLowerCase()].findIndex((c, i) => c !== expected[i]);
      return fail(
        'xxd',
        `This line says it starts at byte ${parts.offset} (0x${parts.offsetText}), but ${out.length} bytes (0x${expected}) came before it: a line is missing, or the offset was edited.`,
        l + 1,
        differs < 0 ? 1 : differs + 1,
      );
    }
    const bytes: { value: number; column: number }[] = [];
    for (let g = 0; g < parts.groups.length; g++) {
      const group = parts.groups[g]!;
      const bad = group.text.search(/[^0-9a-fA-F]/);
      if (bad >= 0) {
        const hint = /^[ .]/.test(line.slice(group.column - 1 + bad - 1)) ? '' : ' (are the two spaces before the text column missing?)';
        return fail('xxd', `"${group.text[bad]}" is not a hex digit${bad > 0 || group.text.length > 2 ? '' : hint}.`, l + 1, group.column + bad);
      }
      const lastGroup = g === parts.groups.length - 1;
      if (group.text.length % 2 !== 0 || (groupLength !== undefined && group.text.length !== groupLength && !(lastGroup && group.text.length < groupLength))) {
        return fail(
          'xxd',
          `The group "${group.text}" has ${group.text.length} hex digits where the others have ${groupLength ?? 'an even number of'}: a digit was added or lost.`,
          l + 1,
          // A longer group: where its extra digits start; a shorter one: the group itself.
          groupLength !== undefined && group.text.length > groupLength ? group.column + groupLength : group.column,
        );
      }
      for (let c = 0; c < group.text.length; c += 2) bytes.push({ value: Number.parseInt(group.text.slice(c, c + 2), 16), column: group.column + c });
    }
    if (perLine !== undefined && l !== last && bytes.length !== perLine) {
      return fail('xxd', `This line holds ${bytes.length} bytes where the others hold ${perLine}.`, l + 1, parts.hexEnd);
    }
    // The character column, when it is there and as long as the bytes: each character must be its byte's.
    if (parts.ascii !== undefined && [...parts.ascii].length === bytes.length) {
      const chars = [...parts.ascii];
      for (let i = 0; i < bytes.length; i++) {
        const { value, column } = bytes[i]!;
        const shown = value >= 0x20 && value < 0x7f ? String.fromCharCode(value) : '.';
        if (chars[i] !== shown && !(chars[i] === '.' && value === 0x2e)) {
          return fail(
            'xxd',
            `The hex says byte ${out.length + i} is 0x${value.toString(16).padStart(2, '0')} (${shown === '.' ? 'shown as "."' : `"${shown}"`}), but the character column beside it (column ${parts.asciiColumn + i}) shows "${chars[i]}": one of the two was edited.`,
            l + 1,
            column,
          );
        }
      }
    }
    for (const b of bytes) out.push(b.value);
  }
  if (out.length === 0) return fail('xxd', 'The xxd dump holds no bytes.', 1, 1);
  return { ok: true, bytes: Uint8Array.from(out), form: 'xxd' };
}

interface XxdParts {
  readonly offset: number;
  readonly offsetText: string;
  /** Each group of hex digits with the 1-based column of its first digit. */
  readonly groups: readonly { text: string; column: number }[];
  /** The column just past the hex part. */
  readonly hexEnd: number;
  readonly ascii?: string;
  readonly asciiColumn: number;
}

function xxdParts(line: string, asciiAt?: number): XxdParts | undefined {
  const m = XXD_LINE.exec(line);
  if (!m) return undefined;
  const from = m[0].length;
  // The hex part ends at the two spaces before the character column (or at the end of the line).
  const gap = line.indexOf('  ', from);
  const hexPart = gap < 0 ? line.slice(from) : line.slice(from, gap);
  const groups: { text: string; column: number }[] = [];
  const re = /\S+/g;
  for (let g = re.exec(hexPart); g; g = re.exec(hexPart)) groups.push({ text: g[0], column: from + g.index + 1 });
  // The character column starts two spaces after the hex (a space in it is byte 0x20); on a short last line xxd
  // pads the hex part, so there it starts where it does on the full lines.
  const asciiStart = gap < 0 ? -1 : asciiAt !== undefined && asciiAt > gap && line.slice(gap, asciiAt).trim() === '' ? asciiAt : gap + 2;
  const ascii = gap < 0 ? undefined : line.slice(asciiStart);
  return {
    offset: Number.parseInt(m[1]!, 16),
    offsetText: m[1]!,
    groups,
    hexEnd: from + hexPart.trimEnd().length + 1,
    ...(ascii !== undefined ? { ascii } : {}),
    asciiColumn: asciiStart + 1,
  };
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
