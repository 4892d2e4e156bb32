/**
 * node scripts/run-bundled.mjs <entry.ts> [args...]: bundles the entry (src/testing/bundle.mjs) and runs it with
 * the remaining arguments, as if it had been started itself. `npm run serve` runs scripts/serve.ts this way.
 */
import { bundle } from '../src/testing/bundle.mjs';

const [entry] = process.argv.splice(2, 1);
if (!entry) {
  console.error('usage: node scripts/run-bundled.mjs <entry.ts> [args...]');
  process.exit(2);
}
await import(await bundle(entry));
