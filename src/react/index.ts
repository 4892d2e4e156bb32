/**
 * roundtrip/react: React bindings for roundtrip/query, with the @tanstack/react-query v5 interface.
 * This file is the library's only public surface.
 */
export { QUERY_VERSION } from 'roundtrip/query';
export const REACT_BINDINGS_VERSION = '0.1.0';
