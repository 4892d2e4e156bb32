/// <reference types="astro/client" />
/// <reference types="vite/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the reader's first pointer, focus or key event inside the island (see src/playground/build). */
    'client:interaction'?: boolean;
  }
}

export {};
