// Ambient declarations for the virtual modules the playground's build plugins provide (no imports here, so
// these declare modules rather than augment one).
declare module 'virtual:roundtrip-types' {
  /** Declaration files of the roundtrip/* libraries, keyed by their path in the editor's virtual file system. */
  const files: Record<string, string>;
  export default files;
}
