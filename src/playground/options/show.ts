/**
 * `show(bytes, { as })`: hands bytes a snippet made or read with the codecs of `roundtrip/wire` to the
 * playground's visualizer, which draws them in the views the inspector uses for pasted bytes (Messages for
 * HTTP/1, Frames and HPACK for HTTP/2). Inside a playground the sandbox installs the drawing (through the
 * options context, context.ts); anywhere else (a test, a downloaded project) show checks its arguments and
 * does nothing else, so a snippet runs the same everywhere.
 *
 * Kept to argument checks: this module is part of `roundtrip/playground`, which every snippet loads; what
 * reads the bytes (sandbox/capture-show.ts) lives in the sandbox beside the wire library.
 */
import { currentOptionsContext } from './context';

export type ShowFormat = 'http1' | 'http2' | 'hpack';

export interface ShowOptions {
  /**
   * How to read the bytes: 'http1' one HTTP/1.x message (or several back to back) as one side wrote them;
   * 'http2' whole HTTP/2 frames (the client's first may start with the connection preface); 'hpack' one HPACK field
   * block (RFC 7541), decoded after the blocks shown before it with the same label and side.
   */
  readonly as: ShowFormat;
  /**
   * Names the connection: every show with the same label (and format) is one connection in the views, its
   * bytes in order. Default: one connection per format.
   */
  readonly label?: string;
  /** Which side wrote the bytes. Default: 'client'. */
  readonly from?: 'client' | 'server';
}

const FORMATS: readonly ShowFormat[] = ['http1', 'http2', 'hpack'];

/** The arguments as show() takes them: bytes as a Uint8Array (a string is taken as its UTF-8 bytes). */
export function checkShowArguments(bytes: unknown, options: unknown): { bytes: Uint8Array; options: ShowOptions } {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  // Not instanceof: bytes made in another realm (a test's, a worker's) are Uint8Arrays too.
  if (Object.prototype.toString.call(data) !== '[object Uint8Array]')
    throw new TypeError(`show(bytes, options): bytes must be a Uint8Array or a string, not ${bytes === null ? 'null' : typeof bytes}.`);
  const o = (options ?? {}) as Partial<ShowOptions>;
  if (typeof options !== 'object' || options === null || !FORMATS.includes(o.as as ShowFormat))
    throw new TypeError(`show(bytes, options): options.as must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}, not ${JSON.stringify(o.as)}.`);
  if (o.from !== undefined && o.from !== 'client' && o.from !== 'server')
    throw new TypeError(`show(bytes, options): options.from must be 'client' or 'server', not ${JSON.stringify(o.from)}.`);
  if (o.label !== undefined && typeof o.label !== 'string') throw new TypeError('show(bytes, options): options.label must be a string.');
  return {
    bytes: data as Uint8Array,
    options: { as: o.as as ShowFormat, ...(o.label !== undefined ? { label: o.label } : {}), ...(o.from ? { from: o.from } : {}) },
  };
}

/**
 * Draws `bytes` in the playground's visualizer, read as `options.as` says; returns them unchanged, so it can
 * wrap an expression (`const block = show(encoder.encode(fields), { as: 'hpack' })`). Outside a playground it
 * only checks its arguments.
 */
export function show<B extends Uint8Array | string>(bytes: B, options: ShowOptions): B {
  const checked = checkShowArguments(bytes, options);
  currentOptionsContext()?.show?.(checked.bytes, checked.options);
  return bytes;
}
