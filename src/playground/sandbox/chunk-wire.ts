/**
 * The sandbox's wire chunk (see chunks.mjs): roundtrip/wire, and beside it what draws a snippet's `show()`
 * calls (capture-show.ts), which reads bytes with the wire library's own codecs and so travels with it. The
 * runtime takes `createShowRecorder` off the chunk before the snippet gets the module (capture-wire.ts).
 */
export * from 'roundtrip/wire';
export { createShowRecorder } from './capture-show';
