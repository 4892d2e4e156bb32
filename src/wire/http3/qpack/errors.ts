/**
 * QPACK errors (RFC 9204 §6). Every one of them is a connection error in HTTP/3: once a field section or
 * an instruction cannot be read, the two dynamic tables can no longer be trusted to agree.
 *
 * - QPACK_DECOMPRESSION_FAILED (0x200): a field section the decoder cannot read (§2.2.3, §4.5);
 * - QPACK_ENCODER_STREAM_ERROR (0x201): an encoder instruction the decoder cannot apply (§3.2.2, §4.3);
 * - QPACK_DECODER_STREAM_ERROR (0x202): a decoder instruction the encoder cannot apply (§4.4).
 *
 * `offset` is where the problem was found: in the field section's bytes, or counted from the first byte
 * ever received on the encoder or decoder stream (those streams are one long sequence of instructions).
 */
import { WireError } from '../../errors';

export type QpackErrorCode = 'QPACK_DECOMPRESSION_FAILED' | 'QPACK_ENCODER_STREAM_ERROR' | 'QPACK_DECODER_STREAM_ERROR';

/** The HTTP/3 error code numbers of RFC 9204 §6 (registered in §8.3). */
export const QPACK_ERROR_CODES: Readonly<Record<QpackErrorCode, number>> = Object.freeze({
  QPACK_DECOMPRESSION_FAILED: 0x200,
  QPACK_ENCODER_STREAM_ERROR: 0x201,
  QPACK_DECODER_STREAM_ERROR: 0x202,
});

/** What the bytes at `offset` belong to. */
export type QpackInput = 'field-section' | 'encoder-stream' | 'decoder-stream';

export class QpackError extends WireError {
  override readonly name: string = 'QpackError';
  declare readonly code: QpackErrorCode;
  /** The numeric HTTP/3 error code to close the connection with (0x200-0x202). */
  readonly errorCode: number;
  readonly input: QpackInput;
  /** The request or push stream of the field section, when the error is in one. */
  readonly streamId: number | undefined;

  constructor(code: QpackErrorCode, message: string, offset: number, input: QpackInput, streamId?: number) {
    super({ code, message, offset, side: 'remote' });
    this.errorCode = QPACK_ERROR_CODES[code];
    this.input = input;
    this.streamId = streamId;
  }
}
