// Public surface of src/wire/data, re-exported by src/wire/index.ts.
export {};
