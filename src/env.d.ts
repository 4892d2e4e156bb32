/// <reference types="astro/client" />
/// <reference types="vite/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the reader's first pointer, focus or key event inside the island (see src/playground/build). */
    'client:interaction'?: boolean;
  }
}

declare module 'virtual:roundtrip-types' {
  /** Declaration files of the roundtrip/* libraries, keyed by their path in the editor's virtual file system. */
  const files: Record<string, string>;
  export default files;
}

export {};
