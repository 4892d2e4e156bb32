// Public surface of src/wire/http1, re-exported by src/wire/index.ts.
export {};
