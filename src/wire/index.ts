/**
 * roundtrip/wire: the in-browser HTTP protocol simulator (sans-I/O engines, virtual clock and network,
 * mock server, trace). This file is the library's only public surface; each area curates its own
 * `index.ts` and everything else is internal.
 */
export const WIRE_VERSION = '0.1.0';
export { WireError, isWireError } from './errors';
export type { ErrorSide, WireErrorInit } from './errors';
export type { WireEngine, WireRole } from './engine';
export * from './crypto/index';
export * from './data/index';
export * from './http1/index';
export * from './hpack/index';
export * from './http2/index';
export * from './http3/index';
export * from './net/index';
export * from './server/index';
export * from './sim/index';
export * from './trace/index';
