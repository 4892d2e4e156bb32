// Public surface of src/wire/hpack, re-exported by src/wire/index.ts.
export {};
