// Public surface of src/wire/net, re-exported by src/wire/index.ts.
export {};
