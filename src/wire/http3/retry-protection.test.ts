import { describe, expect, it } from 'vitest';
import { hex, RFC9001_DCID, toHex } from '../crypto/testing';
import { quicRetryIntegrityTag, verifyQuicRetry } from './retry-protection';

/** RFC 9001 Appendix A.4: the Retry answering A.2's Initial, token "token", new SCID f067a5502a4262b5. */
const A4_RETRY = hex('ff000000010008f067a5502a4262b574 6f6b656e04a265ba2eff4d829058fb3f 0f2496ba');

describe('Retry Integrity Tag (RFC 9001 §5.8, Appendix A.4)', () => {
  it('computes A.4’s tag from the client’s original DCID', async () => {
    expect(toHex(await quicRetryIntegrityTag(A4_RETRY.subarray(0, A4_RETRY.length - 16), RFC9001_DCID))).toBe('04a265ba2eff4d829058fb3f0f2496ba');
    expect(await verifyQuicRetry(A4_RETRY, RFC9001_DCID)).toBe(true);
  });

  it('fails for another original DCID, a changed token byte or a cut packet', async () => {
    expect(await verifyQuicRetry(A4_RETRY, hex('8394c8f03e515709'))).toBe(false);
    const changed = new Uint8Array(A4_RETRY);
    changed[16]! ^= 0x20;
    expect(await verifyQuicRetry(changed, RFC9001_DCID)).toBe(false);
    expect(await verifyQuicRetry(A4_RETRY.subarray(0, 15), RFC9001_DCID)).toBe(false);
  });
});
