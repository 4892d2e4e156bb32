/**
 * QUIC packet numbers (RFC 9000 §17.1, Appendix A): how many bytes a header spends on one, truncating it, and
 * expanding a truncated one on receipt. Apart from quic-codec.ts because the sender's connection
 * (connection.ts) and packet protection (packet-protection.ts, which reads the number only after removing
 * header protection) use them without reading packet headers.
 */
import { misuse } from './quic-codec-errors';

/**
 * How many bytes (1-4) a packet number takes when the peer has acknowledged up to `largestAcked` (undefined:
 * nothing yet): enough bits for twice the distance, so the receiver can undo the truncation (Appendix A.2).
 */
export function quicPacketNumberLength(fullPn: number, largestAcked: number | undefined): 1 | 2 | 3 | 4 {
  const unacked = largestAcked === undefined ? fullPn + 1 : fullPn - largestAcked;
  // min_bits = log2(num_unacked) + 1, rounded up to whole bytes.
  let bits = 1;
  while (2 ** (bits - 1) < unacked) bits++;
  const bytes = Math.ceil(bits / 8);
  if (bytes > 4) throw misuse(`Packet number ${fullPn} is ${unacked} ahead of the largest acknowledged: more than 4 bytes can tell apart (RFC 9000 §17.1).`);
  return Math.max(1, bytes) as 1 | 2 | 3 | 4;
}

/** The low `length` bytes of `fullPn`, the truncated packet number a header carries. */
export function truncatePacketNumber(fullPn: number, length: 1 | 2 | 3 | 4): number {
  return fullPn % 2 ** (8 * length);
}

/** RFC 9000 Appendix A.3: the full packet number closest to the next one expected. */
export function decodePacketNumber(largestPn: number | undefined, truncatedPn: number, bits: number): number {
  const expected = (largestPn ?? -1) + 1;
  const win = 2 ** bits;
  const half = win / 2;
  // (expected & ~mask) | truncated, with arithmetic that stays exact above 2^32.
  const candidate = expected - (expected % win) + truncatedPn;
  if (candidate <= expected - half && candidate < 2 ** 62 - win) return candidate + win;
  if (candidate > expected + half && candidate >= win) return candidate - win;
  return candidate;
}
