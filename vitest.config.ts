import { defineConfig } from 'vitest/config';
import { roundtripAliases } from './aliases.mjs';

export default defineConfig({
  resolve: { alias: roundtripAliases },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.{ts,mjs}'],
    environment: 'node',
    // Generous, as in the e2e config: tests assert behaviour, never speed, and a busy 2-core CI machine can take
    // several times longer than a quiet one on a jsdom render (5 s, the default, was hit by one under load).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ['src/**/*.bench.{ts,tsx}'] },
    typecheck: { enabled: true, include: ['src/**/*.test-d.{ts,tsx}'], tsconfig: './tsconfig.json' },
  },
});
