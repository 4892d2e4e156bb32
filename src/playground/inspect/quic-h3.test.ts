import { describe, expect, it } from 'vitest';
import { inspect } from './inspect';
import { looksLikeHttp3Sections, readHttp3Sections } from './quic-h3';

// RFC 9204 Appendix B.2: two inserts on the encoder stream, then a section on stream 4 referencing both post-base.
const B2_ENCODER = '3fbd01 c00f7777772e6578616d706c652e636f6d c10c2f73616d706c652f70617468';
const B2_SECTION = '0381 10 11';

describe('HTTP/3 streams and QPACK in hex', () => {
  it('RFC 9204 B.1: a field section with a static name reference and no dynamic table', () => {
    const r = readHttp3Sections('fields 0: 0000 510b2f696e6465782e68746d6c');
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual(['Field section on stream 0:', '  15 bytes: Required Insert Count 0, Base 0; :path: /index.html']);
  });

  it('RFC 9204 B.2: the encoder stream, then a HEADERS frame on stream 4 and its Section Acknowledgment', () => {
    const r = readHttp3Sections(`encoder: ${B2_ENCODER}\nrequest 4: 01 04 ${B2_SECTION}\ndecoder: 84`);
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([
      'Encoder stream: 3 instructions.',
      '  Set Dynamic Table Capacity 220',
      '  insert-name-ref -> [0] :authority: www.example.com',
      '  insert-name-ref -> [1] :path: /sample/path',
      '  Dynamic table: 2 entries, 106 of 220 bytes, Insert Count 2.',
      'Stream 4: 1 frame.',
      '  HEADERS (4 bytes): Required Insert Count 2, Base 0; :authority: www.example.com; :path: /sample/path',
      'Decoder stream: 1 instruction.',
      '  Section Acknowledgment, stream 4',
    ]);
  });

  it('a section pasted before its inserts is blocked, then decoded when the encoder stream arrives', () => {
    const r = readHttp3Sections(`request 4: 01 04 ${B2_SECTION}\nencoder:\n02 ${B2_ENCODER}`);
    expect(r.problems).toEqual([]);
    expect(r.notes[1]).toBe(
      '  HEADERS (4 bytes): blocked, Required Insert Count 2 while the table has 0 (RFC 9204 §2.1.2); decoded when the encoder stream inserts the rest.',
    );
    // The 0x02 stream type byte is taken as the encoder stream's, not as an instruction.
    expect(r.notes[2]).toBe('Encoder stream (stream type 0x02 first): 3 instructions.');
    expect(r.notes.at(-1)).toBe('  Unblocked stream 4: :authority: www.example.com; :path: /sample/path');
  });

  it('a control stream: its type byte, SETTINGS by name, GOAWAY', () => {
    const r = readHttp3Sections('control: 00 04 06 01 4400 07 40 64 07 01 08');
    expect(r.problems).toEqual([]);
    expect(r.notes).toEqual([
      'Control stream (stream type 0x00 first): 2 frames.',
      '  SETTINGS SETTINGS_QPACK_MAX_TABLE_CAPACITY=1024, SETTINGS_QPACK_BLOCKED_STREAMS=100',
      '  GOAWAY 8',
    ]);
  });

  it('errors keep their RFC code and the byte in their section', () => {
    const r = readHttp3Sections('encoder: 3fbd01 8000');
    expect(r.problems[0]).toMatchObject({ where: 'the encoder section at line 1, byte 3' });
    expect(r.problems[0]?.message).toMatch(/^QPACK_ENCODER_STREAM_ERROR: /);
    const still = readHttp3Sections(`fields 8: ${B2_SECTION}`);
    expect(still.problems.at(-1)?.message).toMatch(/^Still blocked at the end: stream 8/);
    expect(readHttp3Sections('01 02').problems[0]?.message).toMatch(/^Line 1 comes before any label/);
    expect(looksLikeHttp3Sections('encoder: 3fbd01')).toBe(true);
    expect(looksLikeHttp3Sections('client:\n505249')).toBe(false);
  });

  it('the inspector names the format from the first label and reads it', () => {
    const r = inspect({ text: `encoder: ${B2_ENCODER}\nrequest 4: 01 04 ${B2_SECTION}` });
    expect(r.format).toBe('h3');
    expect(r.notes).toContain('  HEADERS (4 bytes): Required Insert Count 2, Base 0; :authority: www.example.com; :path: /sample/path');
  });
});
