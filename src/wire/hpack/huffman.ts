/**
 * The HPACK Huffman code (RFC 7541 §5.2 and Appendix B).
 *
 * Appendix B's code is canonical: sorting the symbols by (code length, symbol value) and counting upward
 * reproduces every code in the table. So the only data kept here is the "len in bits" column; the codes
 * are derived from it at load time, and the tests check the derivation against the RFC's examples.
 *
 * Decoding walks a 4-bit-at-a-time state machine built from the code tree: every state is an internal
 * node of the tree, and since no code is shorter than 5 bits a nibble emits at most one symbol.
 *
 * Padding rules (RFC 7541 §5.2): the string may end with fewer than 8 bits of the EOS prefix (all ones).
 * Padding of 8 bits or more, padding that is not all ones, or a decoded EOS symbol is a decoding error.
 */
import { compressionError } from './errors';

/** Bit length of the code for each symbol 0-255, then EOS (256). RFC 7541 Appendix B, "len in bits". */
// biome-ignore format: sixteen symbols a row with the row's range beside it; one number a line would lose the table
export const HUFFMAN_CODE_LENGTHS: readonly number[] = Object.freeze([
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, // 0x00-0x0f
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, // 0x10-0x1f
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, //         ' ' to '/'
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, //              '0' to '?'
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, //                '@' to 'O'
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, //             'P' to '_'
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, //                '`' to 'o'
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, //            'p' to 0x7f
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 0x80-0x8f
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 0x90-0x9f
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 0xa0-0xaf
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 0xb0-0xbf
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 0xc0-0xcf
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 0xd0-0xdf
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 0xe0-0xef
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 0xf0-0xff
  30, //                                                              EOS
]);

export const EOS = 256;

/** Code of each symbol, right-aligned (the low `length` bits are the code). */
export const HUFFMAN_CODES: readonly number[] = (() => {
  const order = HUFFMAN_CODE_LENGTHS.map((_, s) => s).sort((a, b) => HUFFMAN_CODE_LENGTHS[a]! - HUFFMAN_CODE_LENGTHS[b]! || a - b);
  const codes = new Array<number>(257).fill(0);
  let code = 0;
  let prevLength = HUFFMAN_CODE_LENGTHS[order[0]!]!;
  for (const symbol of order) {
    const length = HUFFMAN_CODE_LENGTHS[symbol]!;
    code *= 2 ** (length - prevLength); // multiplication, not <<: codes reach 30 bits
    prevLength = length;
    codes[symbol] = code;
    code += 1;
  }
  return Object.freeze(codes);
})();

const LENGTHS = Uint8Array.from(HUFFMAN_CODE_LENGTHS);
const CODES = Uint32Array.from(HUFFMAN_CODES);

/**
 * Strings reach the Huffman coder as "byte strings": one character per octet, every char code < 256
 * (the encoder turns non-ASCII text into its UTF-8 octets first). This keeps the hot path on plain
 * strings without allocating a Uint8Array per header.
 */
export function huffmanEncodedLength(octets: string): number {
  let bits = 0;
  for (let i = 0; i < octets.length; i++) bits += LENGTHS[octets.charCodeAt(i)]!;
  return (bits + 7) >>> 3;
}

/**
 * Writes the Huffman form of `octets` into `out` from `pos` and returns the position after it. The last
 * byte is padded with the most significant bits of EOS, i.e. ones (RFC 7541 §5.2).
 */
export function huffmanEncodeInto(octets: string, out: Uint8Array, pos: number): number {
  let acc = 0; // pending bits: fewer than 8 between symbols
  let n = 0;
  for (let i = 0; i < octets.length; i++) {
    const symbol = octets.charCodeAt(i);
    let len = LENGTHS[symbol]!;
    let code = CODES[symbol]!;
    if (len > 24) {
      // Keep the accumulator within 32 bits: push the high part of long codes first.
      const high = len - 16;
      acc = (acc << high) | (code >>> 16);
      n += high;
      while (n >= 8) {
        n -= 8;
        out[pos++] = (acc >>> n) & 0xff;
      }
      acc &= (1 << n) - 1;
      code &= 0xffff;
      len = 16;
    }
    acc = (acc << len) | code;
    n += len;
    while (n >= 8) {
      n -= 8;
      out[pos++] = (acc >>> n) & 0xff;
    }
    acc &= (1 << n) - 1;
  }
  if (n > 0) out[pos++] = ((acc << (8 - n)) | (0xff >>> n)) & 0xff;
  return pos;
}

/** Convenience form for tests and the docs: octets in, Huffman octets out. */
export function huffmanEncode(bytes: Uint8Array): Uint8Array {
  let octets = '';
  for (const b of bytes) octets += String.fromCharCode(b);
  const out = new Uint8Array(huffmanEncodedLength(octets));
  huffmanEncodeInto(octets, out, 0);
  return out;
}

// ---- decoding state machine -------------------------------------------------------------------------

/** Per (state, nibble): next state in the low 16 bits; emitted symbol + 1 in the next bits (0 = none). */
const { TRANSITIONS, ACCEPTING } = (() => {
  // Build the code tree. Node 0 is the root; children[node * 2 + bit] is a node id, or -(symbol + 1).
  const children: number[] = [0, 0];
  let nodes = 1;
  for (let symbol = 0; symbol <= EOS; symbol++) {
    const len = LENGTHS[symbol]!;
    const code = CODES[symbol]!;
    let node = 0;
    for (let b = len - 1; b >= 0; b--) {
      const bit = Math.floor(code / 2 ** b) & 1;
      const slot = node * 2 + bit;
      if (b === 0) {
        children[slot] = -(symbol + 1);
      } else {
        if (children[slot] === 0) {
          children[slot] = nodes++;
          children.push(0, 0);
        }
        node = children[slot]!;
      }
    }
  }
  // A state is "accepting" when it sits on the all-ones path less than 8 bits deep: stopping there is
  // valid EOS-prefix padding. Depth and all-ones-ness are tracked while walking from the root.
  const accepting = new Uint8Array(nodes);
  accepting[0] = 1;
  let node = 0;
  for (let depth = 1; depth < 8; depth++) {
    node = children[node * 2 + 1]!;
    accepting[node] = 1;
  }
  // Failure marker: symbol field = EOS + 1 + 1 (decoded EOS is an error, RFC 7541 §5.2).
  const transitions = new Uint32Array(nodes * 16);
  for (let state = 0; state < nodes; state++) {
    for (let nibble = 0; nibble < 16; nibble++) {
      let cur = state;
      let emitted = 0;
      for (let b = 3; b >= 0; b--) {
        const next = children[cur * 2 + ((nibble >>> b) & 1)]!;
        if (next < 0) {
          emitted = -next; // symbol + 1
          cur = 0;
        } else {
          cur = next;
        }
      }
      transitions[state * 16 + nibble] = cur | (emitted << 16);
    }
  }
  return { TRANSITIONS: transitions, ACCEPTING: accepting };
})();

const EOS_EMITTED = EOS + 1;

/**
 * Decodes `src[start, end)` into `out` from position 0; returns the number of bytes written. `out` must
 * hold at least `(end - start) * 8 / 5` bytes (the shortest code is 5 bits). Throws COMPRESSION_ERROR with
 * `offset` pointing into the header block.
 */
export function huffmanDecodeInto(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let state = 0;
  let n = 0;
  for (let i = start; i < end; i++) {
    const byte = src[i]!;
    let t = TRANSITIONS[(state << 4) | (byte >>> 4)]!;
    let sym = t >>> 16;
    if (sym !== 0) {
      if (sym === EOS_EMITTED) throw compressionError('Huffman string contains the EOS symbol (RFC 7541 §5.2).', i);
      out[n++] = sym - 1;
    }
    state = t & 0xffff;
    t = TRANSITIONS[(state << 4) | (byte & 0xf)]!;
    sym = t >>> 16;
    if (sym !== 0) {
      if (sym === EOS_EMITTED) throw compressionError('Huffman string contains the EOS symbol (RFC 7541 §5.2).', i);
      out[n++] = sym - 1;
    }
    state = t & 0xffff;
  }
  if (!ACCEPTING[state]) {
    throw compressionError('Huffman string ends with invalid padding: padding must be fewer than 8 bits, all ones (RFC 7541 §5.2).', end - 1);
  }
  return n;
}

export function huffmanDecode(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil((bytes.length * 8) / 5));
  const n = huffmanDecodeInto(bytes, 0, bytes.length, out);
  return out.subarray(0, n);
}
