/**
 * roundtrip/query: the query library core, with the TanStack Query v5 interface.
 * This file is the library's only public surface.
 */
export const QUERY_VERSION = '0.1.0';
