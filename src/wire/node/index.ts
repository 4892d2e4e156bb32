/**
 * roundtrip/wire's Node-only adapters: the sans-I/O engines over real node:net sockets, on loopback.
 * Deliberately not re-exported by src/wire/index.ts: the browser bundle must stay free of node: imports.
 * Import this file by path (scripts/serve.ts does).
 */
export { serveTcp, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_REQUESTS_PER_CONNECTION, DEFAULT_PREFACE_TIMEOUT_MS } from './tcp-server';
export type { ServeTcpOptions, TcpServer } from './tcp-server';
export { Http1Client } from './http1-client';
export type { Http1ClientOptions, Http1ClientRequest, Http1ClientResponse } from './http1-client';
export { Http1ServerSession, http1Protocol } from './http1-server';
export type { Http1ServerOptions } from './http1-server';
export { mockDispatch } from './dispatch';
export type { Dispatch, Outcome, Reply } from './dispatch';
export { prefaceDetector, selectProtocol } from './protocol';
export type { Detection, ProtocolEnv, ServerProtocol } from './protocol';
export { SocketTransport, realTimers, LINGER_MS } from './transport';
export type { Timers, Transport } from './transport';
export { createDemoServer, demoCommands, demoH2Commands } from './demo-server';
export { H2cServerSession, h2cProtocol } from './h2c-server';
export type { H2cServerOptions } from './h2c-server';
export { Http2Client } from './h2c-client';
export type { Http2ClientOptions, Http2ClientRequest, Http2ClientResponse, Http2Push } from './h2c-client';
export { Http2Link } from './h2-link';
export type { FrameCounts } from './h2-link';
