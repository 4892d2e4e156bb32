/**
 * Decoder-stream instructions (RFC 9204 §4.4), read by the encoder: Section Acknowledgment (1 + stream ID,
 * 7-bit prefix), Stream Cancellation (01 + stream ID, 6-bit prefix) and Insert Count Increment (00 +
 * increment, 6-bit prefix). The stream is unframed, so a read may stop mid-instruction.
 */
import { bitsOf, INCOMPLETE, QpackReader } from './primitives';
import { part } from './record-parts';
import type { QpackDecoderInstructionRecord } from './records';

export interface QpackDecoderInstruction {
  readonly kind: 'section-ack' | 'stream-cancel' | 'insert-count-increment';
  readonly value: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Reads whole instructions from `buf` (whose first byte is at stream offset `offset`); returns them and how
 * many bytes they took. A cut-short instruction is left for the next call.
 */
export function readDecoderInstructions(buf: Uint8Array, offset: number): { instructions: QpackDecoderInstruction[]; consumed: number } {
  const instructions: QpackDecoderInstruction[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const r = new QpackReader(buf, 'QPACK_DECODER_STREAM_ERROR', 'decoder-stream', true, offset, undefined, pos);
    const b = buf[pos]!;
    try {
      if (b & 0x80) instructions.push({ kind: 'section-ack', value: r.integer(7, 'a stream ID'), start: pos + offset, end: r.pos + offset });
      else if (b & 0x40) instructions.push({ kind: 'stream-cancel', value: r.integer(6, 'a stream ID'), start: pos + offset, end: r.pos + offset });
      else instructions.push({ kind: 'insert-count-increment', value: r.integer(6, 'an increment'), start: pos + offset, end: r.pos + offset });
    } catch (error) {
      if (error === INCOMPLETE) break;
      throw error;
    }
    pos = r.pos;
  }
  return { instructions, consumed: pos };
}

/** Records for the docs' views: what each decoder instruction's bits say. */
export function decoderInstructionRecord(buf: Uint8Array, offset: number, i: QpackDecoderInstruction): QpackDecoderInstructionRecord {
  const b = buf[i.start - offset]!;
  const at = i.start;
  if (i.kind === 'section-ack') {
    return {
      kind: i.kind,
      start: at,
      end: i.end,
      streamId: i.value,
      increment: null,
      parts: [
        part('pattern', at, at + 1, bitsOf(b, 0, 1), '1', 'Section Acknowledgment (RFC 9204 §4.4.1)'),
        part('stream ID', at, i.end, bitsOf(b, 1, 7), i.value, `The oldest unacknowledged section of stream ${i.value} was decoded (7-bit prefix integer)`),
      ],
    };
  }
  if (i.kind === 'stream-cancel') {
    return {
      kind: i.kind,
      start: at,
      end: i.end,
      streamId: i.value,
      increment: null,
      parts: [
        part('pattern', at, at + 1, bitsOf(b, 0, 2), '01', 'Stream Cancellation (RFC 9204 §4.4.2)'),
        part('stream ID', at, i.end, bitsOf(b, 2, 6), i.value, `Stream ${i.value} was abandoned: its references are released (6-bit prefix integer)`),
      ],
    };
  }
  return {
    kind: i.kind,
    start: at,
    end: i.end,
    streamId: null,
    increment: i.value,
    parts: [
      part('pattern', at, at + 1, bitsOf(b, 0, 2), '00', 'Insert Count Increment (RFC 9204 §4.4.3)'),
      part('increment', at, i.end, bitsOf(b, 2, 6), i.value, `${i.value} more insert${i.value === 1 ? '' : 's'} received (6-bit prefix integer)`),
    ],
  };
}

/** Describes decoder-stream bytes on their own (no encoder state): for /inspect/ and the stepper. */
export function describeQpackDecoderStream(bytes: Uint8Array): { instructions: QpackDecoderInstructionRecord[]; incomplete: number } {
  const { instructions, consumed } = readDecoderInstructions(bytes, 0);
  return { instructions: instructions.map((i) => decoderInstructionRecord(bytes, 0, i)), incomplete: bytes.length - consumed };
}
