/**
 * The HTTP/2 error-code explanations: one per code the engine knows, and NO_ERROR and CANCEL keep their
 * RFC 9113 meanings apart (§7; §8.1 for NO_ERROR on RST_STREAM after a complete response).
 */
import { ERROR_CODES } from 'roundtrip/wire';
import { describe, expect, it } from 'vitest';
import { HTTP2_ERROR_MEANINGS } from './http2-error-codes';

describe('HTTP2_ERROR_MEANINGS', () => {
  it('explains exactly the codes of ERROR_CODES', () => {
    expect(Object.keys(HTTP2_ERROR_MEANINGS).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("gives NO_ERROR its own meaning, not CANCEL's", () => {
    const noError = HTTP2_ERROR_MEANINGS.NO_ERROR;
    expect(noError).toMatch(/GOAWAY/);
    expect(noError).toMatch(/RST_STREAM/);
    expect(noError).toMatch(/complete response/);
    expect(noError).toMatch(/request body/);
    expect(noError).not.toMatch(/no longer (needs|wanted)/);
    expect(HTTP2_ERROR_MEANINGS.CANCEL).toMatch(/no longer wanted/);
  });
});
