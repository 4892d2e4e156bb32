import { QUERY_VERSION } from 'roundtrip/query';

console.log('roundtrip/query', QUERY_VERSION);
