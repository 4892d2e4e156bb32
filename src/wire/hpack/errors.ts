/**
 * HPACK errors. RFC 7541 §2.3 / RFC 9113 §4.3: a header block that cannot be decoded leaves the two
 * dynamic tables out of step for good, so every decoding failure is a connection error of type
 * COMPRESSION_ERROR (0x9). The one exception is a header list that decodes fine but is larger than the
 * local limit (RFC 9113 §10.5.1): the tables stay in step, so only that request fails.
 */
import { WireError } from '../errors';

export type HpackErrorCode = 'COMPRESSION_ERROR' | 'HEADER_LIST_TOO_LARGE';

export class HpackError extends WireError {
  override readonly name: string = 'HpackError';
  declare readonly code: HpackErrorCode;
  /** 'connection': the compression context is lost; 'stream': only this header list is refused. */
  readonly scope: 'connection' | 'stream';
  /** Numeric HTTP/2 error code to send in GOAWAY / RST_STREAM (RFC 9113 §7). */
  readonly errorCode: number;

  constructor(code: HpackErrorCode, message: string, offset = 0, side: 'local' | 'remote' = 'remote') {
    super({
      code,
      message,
      offset,
      side,
      ...(code === 'HEADER_LIST_TOO_LARGE' ? { statusHint: 431 } : {}),
    });
    this.scope = code === 'COMPRESSION_ERROR' ? 'connection' : 'stream';
    // 0x9 COMPRESSION_ERROR; an oversized list is refused with 0xb ENHANCE_YOUR_CALM (RFC 9113 §10.5.1
    // leaves the choice open; 431 is the HTTP-level answer a server would prefer when it can).
    this.errorCode = code === 'COMPRESSION_ERROR' ? 0x9 : 0xb;
  }
}

export const compressionError = (message: string, offset: number): HpackError => new HpackError('COMPRESSION_ERROR', message, offset);
