// Type-level: the three HTTP engines all satisfy the common engine shape of engine.ts.
import { describe, expectTypeOf, it } from 'vitest';
import type { WireEngine, WireRole } from './engine';
import type { Http1Connection, Http1EngineEvent } from './http1/connection';
import type { Http2Connection } from './http2/connection';
import type { Http2Event } from './http2/events';
import type { Http3Connection } from './http3/http3-connection';
import type { Http3Event } from './http3/http3-events';
import type { QuicDatagram } from './http3/packets';

describe('WireEngine', () => {
  it('Http1Connection, Http2Connection and Http3Connection are WireEngines', () => {
    expectTypeOf<Http1Connection>().toExtend<WireEngine<Http1EngineEvent, Uint8Array>>();
    expectTypeOf<Http2Connection>().toExtend<WireEngine<Http2Event, Uint8Array>>();
    expectTypeOf<Http3Connection>().toExtend<WireEngine<Http3Event, QuicDatagram>>();
  });

  it('their roles are the one role type', () => {
    expectTypeOf<Http1Connection['role']>().toEqualTypeOf<WireRole>();
    expectTypeOf<Http2Connection['role']>().toEqualTypeOf<WireRole>();
    expectTypeOf<Http3Connection['role']>().toEqualTypeOf<WireRole>();
  });

  it('an engine of the wrong data unit is not one', () => {
    expectTypeOf<Http3Connection>().not.toExtend<WireEngine<Http3Event, Uint8Array>>();
  });
});
