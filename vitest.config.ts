import { defineConfig } from 'vitest/config';
import { roundtripAliases } from './aliases.mjs';

export default defineConfig({
  resolve: { alias: roundtripAliases },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.{ts,mjs}'],
    environment: 'node',
    benchmark: { include: ['src/**/*.bench.{ts,tsx}'] },
    typecheck: { enabled: true, include: ['src/**/*.test-d.{ts,tsx}'], tsconfig: './tsconfig.json' },
  },
});
