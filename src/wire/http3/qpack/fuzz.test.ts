/**
 * Hostile input: random bytes as field sections, encoder-stream bytes and decoder-stream bytes, with and
 * without annotations. Whatever comes in, the only thing thrown is a QpackError with a code of RFC 9204 §6
 * and an offset inside the input (never a TypeError or RangeError from the implementation).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeQpackEncoderStream, QpackDecoder } from './decoder';
import { describeQpackDecoderStream } from './decoder-stream';
import { QpackEncoder } from './encoder';
import { QpackError } from './errors';

const B2 = Uint8Array.from(Buffer.from('3fbd01c00f7777772e6578616d706c652e636f6dc10c2f73616d706c652f70617468', 'hex'));

function onlyQpackErrors(run: () => void, limit: number): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(QpackError);
    const e = error as QpackError;
    expect(['QPACK_DECOMPRESSION_FAILED', 'QPACK_ENCODER_STREAM_ERROR', 'QPACK_DECODER_STREAM_ERROR']).toContain(e.code);
    expect(e.offset).toBeGreaterThanOrEqual(0);
    expect(e.offset).toBeLessThanOrEqual(limit);
  }
}

const bytes = fc.uint8Array({ maxLength: 64 });

describe('QPACK on random bytes', () => {
  it('field sections: decoded, blocked, or a located QPACK_DECOMPRESSION_FAILED', () => {
    fc.assert(
      fc.property(bytes, fc.boolean(), fc.integer({ min: 0, max: 3 }), (section, annotate, blocked) => {
        const d = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: blocked, annotate });
        d.receiveEncoderStream(B2);
        onlyQpackErrors(() => {
          d.decodeFieldSection(0, section);
          // And once more after more inserts, which may unblock it.
          d.receiveEncoderStream(Uint8Array.of(0x00, 0x01));
        }, section.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('encoder streams: applied, left incomplete, or a located QPACK_ENCODER_STREAM_ERROR', () => {
    fc.assert(
      fc.property(bytes, fc.boolean(), (stream, annotate) => {
        const d = new QpackDecoder({ maxTableCapacity: 220, maxBlockedStreams: 1, annotate });
        onlyQpackErrors(() => {
          d.receiveEncoderStream(B2);
          for (const b of stream) d.receiveEncoderStream(Uint8Array.of(b));
        }, B2.length + stream.length);
        const described = describeQpackEncoderStream(Uint8Array.from([...B2, ...stream]), { maxTableCapacity: 220 });
        expect(described.error === null || described.error instanceof QpackError).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('decoder streams: applied, left incomplete, or a located QPACK_DECODER_STREAM_ERROR', () => {
    fc.assert(
      fc.property(bytes, (stream) => {
        const e = new QpackEncoder({ maxTableCapacity: 4096, maxBlockedStreams: 4 });
        for (let i = 0; i < 4; i++) e.encodeFieldSection(i * 4, [{ name: 'x-a', value: String(i) }]);
        onlyQpackErrors(() => e.receiveDecoderStream(stream), stream.length);
        expect(describeQpackDecoderStream(stream).incomplete).toBeLessThanOrEqual(stream.length);
      }),
      { numRuns: 2000 },
    );
  });
});
