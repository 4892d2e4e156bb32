import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hex, RFC9001_A1, RFC9001_A2, RFC9001_A3, RFC9001_A5, RFC9001_DCID, rfc9001A2Payload, toHex } from '../crypto/testing';
import { WireError } from '../errors';
import { deriveQuicInitialKeys, protectQuicInitial, quicInitialHeader, readQuicInitialHeader, unprotectQuicInitial } from './initial-protection';
import {
  NGTCP2_CLIENT_INITIAL_DATAGRAM,
  NGTCP2_CLIENT_SCID,
  NGTCP2_ORIGINAL_DCID,
  NGTCP2_SERVER_INITIAL_DATAGRAM,
  NGTCP2_SERVER_SCID,
} from './initial-protection.fixtures';
import { deriveQuicPacketKeys, protectQuicPacket, unprotectQuicPacket } from './packet-protection';

const empty = new Uint8Array(0);
const SERVER_SCID = hex('f067a5502a4262b5');

describe('Initial secrets (RFC 9001 §5.2, Appendix A.1)', () => {
  it('derives the initial secret and both sides’ key, IV and header-protection key from the DCID', async () => {
    const keys = await deriveQuicInitialKeys(RFC9001_DCID);
    expect(toHex(keys.initialSecret)).toBe(RFC9001_A1.initialSecret);
    for (const side of ['client', 'server'] as const) {
      expect(toHex(keys[side].secret)).toBe(RFC9001_A1[side].secret);
      expect(toHex(keys[side].key)).toBe(RFC9001_A1[side].key);
      expect(toHex(keys[side].iv)).toBe(RFC9001_A1[side].iv);
      expect(toHex(keys[side].hp)).toBe(RFC9001_A1[side].hp);
    }
  });

  it('refuses a version other than 1', async () => {
    await expect(deriveQuicInitialKeys(RFC9001_DCID, 0x6b3343cf)).rejects.toMatchObject({ code: 'quic-initial-version' });
  });
});

describe('protecting an Initial (RFC 9001 Appendix A.2, A.3)', () => {
  it('A.2: the client Initial, 1,200 bytes, byte for byte', async () => {
    const keys = await deriveQuicInitialKeys(RFC9001_DCID);
    const packet = { dcid: RFC9001_DCID, scid: empty, packetNumber: 2, packetNumberLength: 4 as const, payload: rfc9001A2Payload() };
    expect(toHex(quicInitialHeader(packet))).toBe(RFC9001_A2.unprotectedHeader);
    const out = await protectQuicInitial(keys.client, packet);
    expect(toHex(out.sample)).toBe(RFC9001_A2.sample);
    expect(toHex(out.mask)).toBe(RFC9001_A2.mask);
    expect(toHex(out.protectedHeader)).toBe(RFC9001_A2.protectedHeader);
    expect(out.packet.length).toBe(1200);
    expect(toHex(out.packet)).toBe(toHex(hex(RFC9001_A2.packet)));
  });

  it('A.3: the server Initial, with a 2-byte packet number, byte for byte', async () => {
    const keys = await deriveQuicInitialKeys(RFC9001_DCID);
    const packet = { dcid: empty, scid: SERVER_SCID, packetNumber: 1, packetNumberLength: 2 as const, payload: hex(RFC9001_A3.payload) };
    expect(toHex(quicInitialHeader(packet))).toBe(RFC9001_A3.unprotectedHeader);
    const out = await protectQuicInitial(keys.server, packet);
    expect(toHex(out.sample)).toBe(RFC9001_A3.sample);
    expect(toHex(out.mask)).toBe(RFC9001_A3.mask);
    expect(toHex(out.packet)).toBe(toHex(hex(RFC9001_A3.packet)));
  });

  it('refuses a payload too short to sample, saying how much PADDING is missing', async () => {
    const keys = await deriveQuicInitialKeys(RFC9001_DCID);
    await expect(
      protectQuicInitial(keys.client, { dcid: RFC9001_DCID, scid: empty, packetNumber: 0, packetNumberLength: 1, payload: hex('01') }),
    ).rejects.toThrow(/add 2 bytes of PADDING/);
  });
});

describe('removing the protection of an Initial', () => {
  it('A.2: client keys from the packet’s own DCID; packet number 2 and the CRYPTO frame with the ClientHello', async () => {
    const reading = await unprotectQuicInitial(hex(RFC9001_A2.packet));
    expect(reading.side).toBe('client');
    expect(reading.packetNumber).toBe(2);
    expect(reading.pnLength).toBe(4);
    expect(toHex(reading.unprotectedHeader)).toBe(RFC9001_A2.unprotectedHeader);
    expect(toHex(reading.mask)).toBe(RFC9001_A2.mask);
    expect(toHex(reading.payload)).toBe(toHex(rfc9001A2Payload()));
    expect(reading.length).toBe(1182);
    const [crypto, ...padding] = reading.frames;
    expect(crypto).toMatchObject({ type: 'CRYPTO', length: 241, messages: 'ClientHello' });
    expect(crypto?.type === 'CRYPTO' && crypto.offset).toBeUndefined();
    expect(padding.every((f) => f.type === 'PADDING')).toBe(true);
    expect(reading.end).toBe(1200);
  });

  it('A.3: the server Initial opens with the client’s first DCID, not its own (empty) one', async () => {
    const packet = hex(RFC9001_A3.packet);
    const reading = await unprotectQuicInitial(packet, 0, { originalDcid: RFC9001_DCID });
    expect(reading.side).toBe('server');
    expect(reading.packetNumber).toBe(1);
    expect(toHex(reading.scid)).toBe('f067a5502a4262b5');
    expect(toHex(reading.payload)).toBe(toHex(hex(RFC9001_A3.payload)));
    expect(reading.frames.map((f) => f.type)).toEqual(['ACK', 'CRYPTO']);
    // Its own DCID is empty: those keys open nothing, and the error says where and why.
    await expect(unprotectQuicInitial(packet)).rejects.toThrow(
      /^AEAD tag check failed for the Initial packet at datagram offset 0: the client's and the server's Initial keys from the packet's own DCID/,
    );
  });

  it('a flipped tag bit or a wrong DCID is a located WireError, not an exception of the crypto API', async () => {
    const first = hex(RFC9001_A3.packet);
    const datagram = new Uint8Array(first.length * 2);
    datagram.set(first, 0);
    datagram.set(first, first.length);
    datagram[datagram.length - 1]! ^= 0x01;
    const ok = await unprotectQuicInitial(datagram, 0, { originalDcid: RFC9001_DCID });
    expect(ok.end).toBe(first.length);
    const error = await unprotectQuicInitial(datagram, ok.end, { originalDcid: RFC9001_DCID }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WireError);
    expect(error).toMatchObject({ code: 'quic-initial-aead', offset: first.length, side: 'remote' });
    expect((error as Error).message).toMatch(/^AEAD tag check failed for the Initial packet at datagram offset 135: /);
    const wrong = hex(RFC9001_A2.packet);
    await expect(unprotectQuicInitial(wrong, 0, { originalDcid: hex('0001020304050607') })).rejects.toMatchObject({
      code: 'quic-initial-aead',
      offset: 0,
    });
  });

  it('a cut datagram, another packet type or version gives a located header error', async () => {
    const a2 = hex(RFC9001_A2.packet);
    expect(() => readQuicInitialHeader(a2.subarray(0, 1000))).toThrow(/says Length 1182 at byte 16, but only 982 bytes follow/);
    expect(() => readQuicInitialHeader(a2.subarray(0, 10))).toThrow(WireError);
    const handshake = new Uint8Array(a2);
    handshake[0] = 0xe0;
    expect(() => readQuicInitialHeader(handshake)).toThrow(/is a Handshake packet \(Long Packet Type 2\)/);
    const v2 = new Uint8Array(a2);
    v2[4] = 2;
    expect(() => readQuicInitialHeader(v2)).toThrow(/not version 0x00000002/);
    const short = hex(RFC9001_A5.packet);
    await expect(unprotectQuicInitial(short)).rejects.toMatchObject({ code: 'quic-initial-header', offset: 0 });
    // Too short to hold the 16-byte sample after the packet number.
    const tiny = hex('c00000000100000000050000000000');
    await expect(unprotectQuicInitial(tiny)).rejects.toMatchObject({ code: 'quic-packet-too-short' });
  });

  it('round-trips random Initials: any DCID and SCID, packet number, packet-number length and payload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 20 }),
        fc.uint8Array({ minLength: 0, maxLength: 20 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
        fc.integer({ min: 3, max: 200 }),
        async (dcid, scid, pn, pnLength, padding) => {
          const keys = await deriveQuicInitialKeys(dcid);
          const packetNumber = pn % 2 ** (8 * pnLength);
          // One PING, then PADDING: a payload the frame decoder reads back.
          const payload = new Uint8Array(padding);
          payload[0] = 0x01;
          const out = await protectQuicInitial(keys.client, { dcid, scid, packetNumber, packetNumberLength: pnLength, payload });
          const reading = await unprotectQuicInitial(out.packet, 0, { largestPn: packetNumber - 1 });
          expect(reading.side).toBe('client');
          expect(reading.packetNumber).toBe(packetNumber);
          expect(toHex(reading.payload)).toBe(toHex(payload));
          expect(reading.frames[0]).toEqual({ type: 'PING' });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('short header under ChaCha20-Poly1305 (RFC 9001 Appendix A.5)', () => {
  it('protects the one-PING packet to its 21 bytes and opens it back to packet number 654360564', async () => {
    const keys = await deriveQuicPacketKeys(hex(RFC9001_A5.secret), 'AEAD_CHACHA20_POLY1305');
    expect(toHex(keys.key)).toBe(RFC9001_A5.key);
    expect(toHex(keys.hp)).toBe(RFC9001_A5.hp);
    const out = await protectQuicPacket(keys, hex(RFC9001_A5.unprotectedHeader), hex(RFC9001_A5.payload), RFC9001_A5.packetNumber);
    expect(toHex(out.nonce)).toBe(RFC9001_A5.nonce);
    expect(toHex(out.packet.subarray(4))).toBe(RFC9001_A5.ciphertext);
    expect(toHex(out.sample)).toBe(RFC9001_A5.sample);
    expect(toHex(out.mask)).toBe(RFC9001_A5.mask);
    expect(toHex(out.packet)).toBe(RFC9001_A5.packet);
    const opened = await unprotectQuicPacket(keys, hex(RFC9001_A5.packet), 1, { at: 0, name: '1-RTT packet' }, RFC9001_A5.packetNumber - 1);
    expect(opened?.packetNumber).toBe(654360564);
    expect(opened?.truncatedPacketNumber).toBe(49140);
    expect(toHex(opened!.payload)).toBe('01');
    const flipped = hex(RFC9001_A5.packet);
    flipped[20]! ^= 0x40;
    expect(await unprotectQuicPacket(keys, flipped, 1, { at: 0, name: '1-RTT packet' }, RFC9001_A5.packetNumber - 1)).toBeNull();
  });

  it('refuses a header whose packet number is not the one given', async () => {
    const keys = await deriveQuicPacketKeys(hex(RFC9001_A5.secret), 'AEAD_CHACHA20_POLY1305');
    await expect(protectQuicPacket(keys, hex(RFC9001_A5.unprotectedHeader), hex('01'), 654360565)).rejects.toMatchObject({
      code: 'quic-protect-input',
    });
  });
});

describe('Initials from a real peer: ngtcp2 0.12.1 on loopback (initial-protection.fixtures.ts)', () => {
  it("opens the client's first Initial with the keys of its own DCID: packet 0, CRYPTO offset 0 of 371 bytes, 761 of PADDING", async () => {
    const datagram = hex(NGTCP2_CLIENT_INITIAL_DATAGRAM);
    expect(datagram.length).toBe(1200);
    const reading = await unprotectQuicInitial(datagram);
    expect(reading.side).toBe('client');
    expect(toHex(reading.dcid)).toBe(NGTCP2_ORIGINAL_DCID);
    expect(toHex(reading.scid)).toBe(NGTCP2_CLIENT_SCID);
    expect(reading.packetNumber).toBe(0);
    expect(reading.end).toBe(1200);
    const [crypto, ...rest] = reading.frames;
    expect(crypto).toMatchObject({ type: 'CRYPTO', length: 371, messages: 'ClientHello' });
    // The decoder gives a run of PADDING bytes as one frame.
    expect(rest).toEqual([{ type: 'PADDING', length: 761 }]);
    expect(reading.greasedFixedBit).toBe(false);
  });

  it("opens the server's Initial with the client's first DCID: ACK of 0 with ECN counts, CRYPTO of 90 bytes, Length 119; a Handshake packet follows", async () => {
    const datagram = hex(NGTCP2_SERVER_INITIAL_DATAGRAM);
    const reading = await unprotectQuicInitial(datagram, 0, { originalDcid: hex(NGTCP2_ORIGINAL_DCID) });
    expect(reading.side).toBe('server');
    expect(toHex(reading.dcid)).toBe(NGTCP2_CLIENT_SCID);
    expect(toHex(reading.scid)).toBe(NGTCP2_SERVER_SCID);
    expect(reading.packetNumber).toBe(0);
    expect(reading.length).toBe(119);
    // ngtcp2 greases the fixed bit (RFC 9287): the first byte is 0x8c on the wire, 0x80 unprotected (a 1-byte packet number).
    expect(datagram[0]).toBe(0x8c);
    expect(reading.unprotectedHeader[0]).toBe(0x80);
    expect(reading.greasedFixedBit).toBe(true);
    const [ack, crypto] = reading.frames;
    expect(ack).toEqual({ type: 'ACK', ranges: [[0, 0]], ackDelay: 0, ecn: { ect0: 1, ect1: 0, ce: 0 } });
    expect(crypto).toMatchObject({ type: 'CRYPTO', length: 90, messages: 'ServerHello' });
    // The next coalesced packet is the Handshake packet (long header, type 2, its fixed bit greased too).
    expect(datagram[reading.end]! & 0xf0).toBe(0xa0);
    await expect(unprotectQuicInitial(datagram, reading.end, { originalDcid: hex(NGTCP2_ORIGINAL_DCID) })).rejects.toThrow(
      /is a Handshake packet \(Long Packet Type 2\)/,
    );
  });

  it('re-protects what it opened to the same bytes (same keys, header, packet number and payload)', async () => {
    const datagram = hex(NGTCP2_CLIENT_INITIAL_DATAGRAM);
    const reading = await unprotectQuicInitial(datagram);
    // ngtcp2 writes the Length field as a 4-byte varint (0x80000481 = 1153).
    expect(reading.lengthFieldLength).toBe(4);
    expect(reading.length).toBe(1153);
    const again = await protectQuicInitial(reading.keys.client, {
      dcid: reading.dcid,
      scid: reading.scid,
      token: reading.token,
      packetNumber: reading.packetNumber,
      packetNumberLength: reading.pnLength,
      lengthFieldLength: reading.lengthFieldLength,
      payload: reading.payload,
    });
    expect(toHex(again.packet)).toBe(toHex(datagram));
  });
});

describe('any packet under any QUIC v1 AEAD', () => {
  it('round-trips random short-header packets under AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305, and a flipped byte never opens', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('AEAD_AES_128_GCM' as const, 'AEAD_AES_256_GCM' as const, 'AEAD_CHACHA20_POLY1305' as const),
        fc.uint8Array({ minLength: 48, maxLength: 48 }),
        fc.uint8Array({ minLength: 0, maxLength: 20 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
        fc.uint8Array({ minLength: 3, maxLength: 80 }),
        fc.nat(),
        async (aead, secretBytes, dcid, pn, pnLength, payload, flip) => {
          // A SHA-384 suite's secrets are 48 bytes, the others' 32 (RFC 8446 §7.1: Hash.length).
          const secret = secretBytes.subarray(0, aead === 'AEAD_AES_256_GCM' ? 48 : 32);
          const keys = await deriveQuicPacketKeys(secret, aead);
          const packetNumber = pn % 2 ** (8 * pnLength);
          const header = new Uint8Array(1 + dcid.length + pnLength);
          header[0] = 0x40 | (pnLength - 1);
          header.set(dcid, 1);
          for (let i = 0, rest = packetNumber; i < pnLength; i++, rest = Math.floor(rest / 256)) header[header.length - 1 - i] = rest % 256;
          const out = await protectQuicPacket(keys, header, payload, packetNumber);
          expect(out.packet.length).toBe(header.length + payload.length + 16);
          const place = { at: 0, name: '1-RTT packet' };
          const opened = await unprotectQuicPacket(keys, out.packet, 1 + dcid.length, place, packetNumber - 1);
          expect(opened?.packetNumber).toBe(packetNumber);
          expect(toHex(opened!.payload)).toBe(toHex(payload));
          const changed = new Uint8Array(out.packet);
          changed[flip % changed.length]! ^= 0x01;
          expect(await unprotectQuicPacket(keys, changed, 1 + dcid.length, place, packetNumber - 1)).toBeNull();
        },
      ),
      { numRuns: 90 },
    );
  });
});
