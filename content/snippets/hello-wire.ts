import { WIRE_VERSION } from 'roundtrip/wire';

// The snippet runs in a sandbox; console output shows below the editor.
console.log('roundtrip/wire', WIRE_VERSION);
console.info({ request: 'GET / HTTP/1.1', headers: { Host: 'example.com' } });
