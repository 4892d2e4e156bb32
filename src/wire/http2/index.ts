// Public surface of src/wire/http2, re-exported by src/wire/index.ts.
export {};
