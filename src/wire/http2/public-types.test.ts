/**
 * Type-level checks of the public surface. They live in a regular test file: `expectTypeOf` does nothing
 * at run time, and the project's \`tsc --noEmit\` checks the assertions. (A *.test-d.ts file would make
 * Vitest type-check the whole project on every run of this area.)
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Frame, Http2Event, HpackStep } from '../index';
import { Http2Connection, decodeFrames, encodeFrame, HpackDecoder, HpackEncoder } from '../index';

describe('public types of roundtrip/wire HTTP/2 and HPACK', () => {
  it('narrows frames on `type`', () => {
    const frame = {} as Frame;
    if (frame.type === 'SETTINGS') expectTypeOf(frame.settings).toEqualTypeOf<readonly { readonly id: number; readonly value: number }[]>();
    if (frame.type === 'DATA') expectTypeOf(frame.data).toEqualTypeOf<Uint8Array>();
    if (frame.type === 'GOAWAY') expectTypeOf(frame.lastStreamId).toBeNumber();
    expectTypeOf(encodeFrame).parameter(0).toEqualTypeOf<Frame>();
    expectTypeOf(decodeFrames).returns.toEqualTypeOf<{ frames: Frame[]; rest: Uint8Array }>();
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
