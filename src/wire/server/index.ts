// Public surface of src/wire/server, re-exported by src/wire/index.ts.
export {};
