// Public surface of src/wire/http3, re-exported by src/wire/index.ts.
export {};
