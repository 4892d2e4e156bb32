/**
 * Byte classes of the HTTP/1.1 grammar as 256-entry lookup tables (one array read per byte beats a regex on
 * the hot path). The rule names follow RFC 9110 §5.6.2 (token), §5.5 (field values) and RFC 9112 §7.1 (chunks).
 */

const table = (pred: (b: number) => boolean): Uint8Array => {
  const t = new Uint8Array(256);
  for (let b = 0; b < 256; b++) t[b] = pred(b) ? 1 : 0;
  return t;
};

const DIGIT = (b: number) => b >= 0x30 && b <= 0x39;
const ALPHA = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);

/** tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA */
export const TCHAR = table((b) => DIGIT(b) || ALPHA(b) || "!#$%&'*+-.^_`|~".includes(String.fromCharCode(b)));

/** field-vchar = VCHAR / obs-text, plus SP and HTAB inside a value (RFC 9110 §5.5). */
export const FIELD_CHAR = table((b) => (b >= 0x21 && b <= 0x7e) || b >= 0x80 || b === 0x20 || b === 0x09);

/** Bytes of a request-target: visible ASCII only (RFC 9112 §3.2; the URI grammar never allows SP or CTLs). */
export const TARGET_CHAR = table((b) => b >= 0x21 && b <= 0x7e);

/** reason-phrase = 1*( HTAB / SP / VCHAR / obs-text ) (RFC 9112 §4). */
export const REASON_CHAR = FIELD_CHAR;

/** HEXDIG, for chunk-size (RFC 9112 §7.1). */
export const HEX_VALUE = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let d = 0; d < 10; d++) t[0x30 + d] = d;
  for (let d = 0; d < 6; d++) {
    t[0x41 + d] = 10 + d;
    t[0x61 + d] = 10 + d;
  }
  return t;
})();

const SP = 0x20;
const HTAB = 0x09;

export const isToken = (s: string): boolean => {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff || TCHAR[c] === 0) return false;
  }
  return true;
};

/** A field value as a sender may write it: field-chars, no leading or trailing whitespace (RFC 9110 §5.5). */
export const isFieldValue = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff || FIELD_CHAR[c] === 0) return false;
  }
  if (s.length === 0) return true;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  return first !== SP && first !== HTAB && last !== SP && last !== HTAB;
};

/**
 * Bytes to a string, one char per byte (ISO-8859-1), exactly. The receive buffer's decoded window serves the
 * common ASCII case; this is the path for obs-text, which the WHATWG 'latin1' (really windows-1252) decoder
 * would change.
 */
export const latin1 = (bytes: Uint8Array, start: number, end: number): string => {
  let s = '';
  for (let i = start; i < end; i += 4096) s += String.fromCharCode(...bytes.subarray(i, Math.min(end, i + 4096)));
  return s;
};

/** A string of chars 0..255 back to bytes (the inverse of latin1). Callers validate the range first. */
export const latin1Bytes = (s: string, out: Uint8Array, at: number): number => {
  for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  return at + s.length;
};
