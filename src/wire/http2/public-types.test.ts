/**
 * Type-level checks of the public surface. They live in a regular test file: `expectTypeOf` does nothing
 * at run time, and the project's \`tsc --noEmit\` checks the assertions. (A *.test-d.ts file would make
 * Vitest type-check the whole project on every run of this area.)
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Http2Event, Http2Frame, HpackStep } from '../index';
import * as wire from '../index';
import { Http2Connection, decodeHttp2Frames, encodeHttp2Frame, HpackDecoder, HpackEncoder } from '../index';

describe('public types of roundtrip/wire HTTP/2 and HPACK', () => {
  it('narrows frames on `type`', () => {
    const frame = {} as Http2Frame;
    if (frame.type === 'SETTINGS') expectTypeOf(frame.settings).toEqualTypeOf<readonly { readonly id: number; readonly value: number }[]>();
    if (frame.type === 'DATA') expectTypeOf(frame.data).toEqualTypeOf<Uint8Array>();
    if (frame.type === 'GOAWAY') expectTypeOf(frame.lastStreamId).toBeNumber();
    expectTypeOf(encodeHttp2Frame).parameter(0).toEqualTypeOf<Http2Frame>();
    expectTypeOf(decodeHttp2Frames).returns.toEqualTypeOf<{ frames: Http2Frame[]; rest: Uint8Array }>();
  });

  it('narrows connection events on `type`', () => {
    const e = {} as Http2Event;
    if (e.type === 'headers') expectTypeOf(e.kind).toEqualTypeOf<'request' | 'informational' | 'response' | 'trailers'>();
    if (e.type === 'connection-error') expectTypeOf(e.error.scope).toEqualTypeOf<'connection' | 'stream'>();
    expectTypeOf(new Http2Connection({ role: 'client' }).receiveData).returns.toHaveProperty('events');
  });

  it('keeps the HPACK contract', () => {
    expectTypeOf(new HpackDecoder().decode).returns.toEqualTypeOf<{ readonly name: string; readonly value: string }[]>();
    expectTypeOf(new HpackEncoder().encode)
      .parameter(0)
      .toEqualTypeOf<readonly { readonly name: string; readonly value: string; readonly sensitive?: boolean }[]>();
    const step = {} as HpackStep;
    if (step.representation === 'size-update') expectTypeOf(step.maxSize).toBeNumber();
  });
});

describe('public types of HTTP/2 on the simulated network', () => {
  it('narrows the HTTP/2 trace events on `type`', async () => {
    const { http2Client } = await import('../index');
    const e = {} as import('../index').TraceEvent;
    if (e.type === 'h2-frame') {
      expectTypeOf(e.direction).toEqualTypeOf<'sent' | 'received'>();
      expectTypeOf(e.streamId).toBeNumber();
    }
    if (e.type === 'h2-stream-transition') expectTypeOf(e.direction).toEqualTypeOf<'send' | 'recv'>();
    expectTypeOf(http2Client).parameter(0).toEqualTypeOf<import('../index').Http2ClientOptions | undefined>();
  });
});

/** Every unprefixed name HTTP/2 exported before the prefix rule, and the prefixed name it is now an alias of. */
const RENAMED_VALUES = {
  encodeFrame: 'encodeHttp2Frame',
  encodeFrames: 'encodeHttp2Frames',
  decodeFrames: 'decodeHttp2Frames',
  decodeFramesAnnotated: 'decodeHttp2FramesAnnotated',
  parseFrame: 'parseHttp2Frame',
  CLIENT_PREFACE: 'HTTP2_CLIENT_PREFACE',
  DEFAULT_SETTINGS: 'HTTP2_DEFAULT_SETTINGS',
  DEFINED_FLAGS: 'HTTP2_DEFINED_FLAGS',
  ERROR_CODES: 'HTTP2_ERROR_CODES',
  FLAGS: 'HTTP2_FLAGS',
  FRAME_TYPE_CODES: 'HTTP2_FRAME_TYPE_CODES',
  FRAME_TYPE_NAMES: 'HTTP2_FRAME_TYPE_NAMES',
  SETTINGS_IDS: 'HTTP2_SETTINGS_IDS',
  errorCodeName: 'http2ErrorCodeName',
  STREAM_STATES: 'HTTP2_STREAM_STATES',
  STREAM_EVENTS: 'HTTP2_STREAM_EVENTS',
  STREAM_TRANSITIONS: 'HTTP2_STREAM_TRANSITIONS',
  STREAM_ERRORS: 'HTTP2_STREAM_ERRORS',
  streamTransition: 'http2StreamTransition',
  FlowControlWindow: 'Http2FlowControlWindow',
  CONNECTION_SPECIFIC_FIELDS: 'HTTP2_CONNECTION_SPECIFIC_FIELDS',
  validateFieldBlock: 'validateHttp2FieldBlock',
  frameFields: 'http2FrameFields',
  frameFlagNames: 'http2FrameFlagNames',
  DEFAULT_HTTP2_LIMITS: 'HTTP2_DEFAULT_LIMITS',
} as const satisfies Record<string, keyof typeof wire>;

/** The same for HPACK. */
const RENAMED_HPACK_VALUES = {
  DEFAULT_HEADER_TABLE_SIZE: 'HPACK_DEFAULT_HEADER_TABLE_SIZE',
  STATIC_TABLE: 'HPACK_STATIC_TABLE',
  STATIC_TABLE_LENGTH: 'HPACK_STATIC_TABLE_LENGTH',
  HUFFMAN_CODE_LENGTHS: 'HPACK_HUFFMAN_CODE_LENGTHS',
  HUFFMAN_CODES: 'HPACK_HUFFMAN_CODES',
  huffmanEncode: 'hpackHuffmanEncode',
  huffmanDecode: 'hpackHuffmanDecode',
  ENTRY_OVERHEAD: 'HPACK_ENTRY_OVERHEAD',
  REPRESENTATIONS: 'HPACK_REPRESENTATIONS',
} as const satisfies Record<string, keyof typeof wire>;

describe('prefixed names (CONTRIBUTING.md, the prefix rule) and the old names beside them', () => {
  it.each([...Object.entries(RENAMED_VALUES), ...Object.entries(RENAMED_HPACK_VALUES)])('%s is still exported, as the very value of %s', (old, renamed) => {
    const exports = wire as Record<string, unknown>;
    expect(exports[renamed]).toBeDefined();
    expect(exports[old]).toBe(exports[renamed]);
  });

  it('the old type names are the new types', () => {
    expectTypeOf<wire.Frame>().toEqualTypeOf<wire.Http2Frame>();
    expectTypeOf<wire.FrameOfType<'DATA'>>().toEqualTypeOf<wire.Http2FrameOfType<'DATA'>>();
    expectTypeOf<wire.StreamState>().toEqualTypeOf<wire.Http2StreamState>();
    expectTypeOf<wire.ErrorCodeName>().toEqualTypeOf<wire.Http2ErrorCodeName>();
    expectTypeOf<wire.AnnotatedFrame>().toEqualTypeOf<wire.Http2AnnotatedFrame>();
    expectTypeOf<wire.FlowControlWindow>().toEqualTypeOf<wire.Http2FlowControlWindow>();
    expectTypeOf<wire.HeaderField>().toEqualTypeOf<wire.HpackHeaderField>();
    expectTypeOf<wire.EncodedBlock>().toEqualTypeOf<wire.HpackEncodedBlock>();
    expectTypeOf<wire.StaticEntry>().toEqualTypeOf<wire.HpackStaticEntry>();
  });

  it('one role name for every engine: the old role names are WireRole', () => {
    expectTypeOf<wire.Http1Role>().toEqualTypeOf<wire.WireRole>();
    expectTypeOf<wire.Http2Role>().toEqualTypeOf<wire.WireRole>();
    expectTypeOf<wire.QuicRole>().toEqualTypeOf<wire.WireRole>();
    expectTypeOf<wire.WireRole>().toEqualTypeOf<'client' | 'server'>();
  });

  it('every HTTP/2 name the library exports is prefixed, or is one of the deprecated aliases above', () => {
    // The names that come from src/wire/http2/index.ts and nowhere else.
    const http2Names = Object.keys(wire).filter((name) => /http2|HTTP2/.test(name) || name in RENAMED_VALUES);
    const unprefixed = http2Names.filter((name) => !/^(Http2|HTTP2_|http2|encodeHttp2|decodeHttp2|parseHttp2|validateHttp2)/.test(name));
    expect(unprefixed.sort()).toEqual(Object.keys(RENAMED_VALUES).sort());
  });
});
