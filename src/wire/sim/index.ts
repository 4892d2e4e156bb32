// Public surface of src/wire/sim, re-exported by src/wire/index.ts.
export { createSimulation } from './simulation';
export type { Simulation } from './simulation';
export type { SimulationOptions } from './options';
export type {
  ClientProtocol,
  ClientProtocolFactory,
  ProtocolEnv,
  ServerProtocol,
  ServerEnv,
  AttachOptions,
  Detection as ServerProtocolDetection,
} from './protocol';
export type { Exchange } from './exchange';
export { listen as listenSimulated } from './listen';
export { http1Codec } from './http1/codec';
// The forward proxy (smart or a blind 1.0 relay), reading each hop with the HTTP/1 engine.
export { ForwardProxy, stripHopByHop } from './proxy';
export type { ProxyKind, ProxyConfig } from './proxy';
// A client that writes exactly the HTTP/1 bytes it is given (malformed ones too).
export { RawHttp1Client, connectRawHttp1 } from './http1/raw-client';
export type { RawHttp1Host } from './http1/raw-client';
// HTTP/2 on the simulated network: the client behind `createSimulation({ httpVersion: '2' })`.
export { http2Client } from './http2/client';
export type { Http2ClientOptions } from './http2/client';
// A client that sends whatever frames it is given, for lessons about attacks and the server's defences.
export { RawHttp2Client, connectRawHttp2 } from './http2/raw-client';
export type { RawHttp2Host, RawHttp2Options } from './http2/raw-client';
// HTTP/3 on the simulated network: the client (and its server side) behind `createSimulation({ httpVersion: '3' })`.
export { http3Protocol, Http3Client } from './http3/client';
export type { Http3ProtocolOptions } from './http3/client';
export { Http3ServerSession } from './http3/server';
