/**
 * The errors of the QUIC codec (quic-codec.ts, quic-frame-writer.ts, quic-frame-reader.ts,
 * quic-packet-number.ts): a QuicCodecError is the peer's fault and carries the RFC 9000 §20.1 transport error
 * code a receiver closes with; `misuse` is the caller's (a frame or packet that cannot be written). Apart so
 * the frame and packet halves share one definition without importing each other.
 */
import { WireError } from '../errors';

/** RFC 9000 §20.1, the transport error codes this codec raises. */
export const QUIC_CODEC_ERROR_CODES = {
  FRAME_ENCODING_ERROR: 0x07,
  PROTOCOL_VIOLATION: 0x0a,
} as const;
export type QuicCodecErrorCode = keyof typeof QUIC_CODEC_ERROR_CODES;

export class QuicCodecError extends WireError {
  override readonly name: string = 'QuicCodecError';
  declare readonly code: QuicCodecErrorCode;
  /** The numeric transport error code a receiver closes the connection with (RFC 9000 §20.1). */
  readonly errorCode: number;
  /** The type of the frame being read, when the error is inside one (CONNECTION_CLOSE's Frame Type field, §19.19). */
  readonly frameType: number | undefined;

  constructor(code: QuicCodecErrorCode, message: string, offset: number, frameType?: number) {
    super({ code, message, offset, side: 'remote' });
    this.errorCode = QUIC_CODEC_ERROR_CODES[code];
    this.frameType = frameType;
  }
}

/** A frame or packet the caller asked for that cannot be written: the local side's fault. */
export function misuse(message: string): WireError {
  return new WireError({ code: 'quic-encode', side: 'local', message });
}
