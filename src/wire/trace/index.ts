// Public surface of src/wire/trace, re-exported by src/wire/index.ts.
export {};
