/**
 * roundtrip/wire: the in-browser HTTP protocol simulator (sans-I/O engines, virtual clock and network,
 * mock server, trace). This file is the library's only public surface.
 */
export const WIRE_VERSION = '0.1.0';
