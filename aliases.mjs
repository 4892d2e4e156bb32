// One source of truth for how `roundtrip/*` resolves. Astro (Vite), Vitest and the sandbox runtime build all
// read this, so a snippet, a test and a docs page import the very same module.
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export const roundtripAliases = {
  'roundtrip/wire': here('./src/wire/index.ts'),
  'roundtrip/query': here('./src/query/index.ts'),
  'roundtrip/react': here('./src/react/index.ts'),
  'roundtrip/playground': here('./src/playground/options/index.ts'),
};
