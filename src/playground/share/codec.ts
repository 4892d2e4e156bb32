/**
 * The share-link format: playground state -> JSON -> deflate-raw -> base64url, behind a format version.
 *
 * `<version>.<payload>`, e.g. `1.q1YqzsjPS0nMSVWyUirJLy1R...`. Every version ever published keeps a decoder
 * here, so old links keep opening after the format changes; a link from a newer version than this build
 * knows gets a clear "unknown version" error instead of garbage.
 */
import { fromBase64Url, toBase64Url } from './base64url';

export interface ShareState {
  /** The snippet's source code. */
  code: string;
  /** Only the options that differ from the snippet's defaults. */
  options?: Record<string, unknown>;
  /** Seed of the simulation's random generator, so a run replays identically. */
  seed?: number;
  /** Which visualizer view was open: an id from viz/views.ts ('sequence', 'frames'...). */
  view?: string;
  /**
   * The visualizer step the reader was looking at (0-based index into the run's steps). Applied after the
   * reader presses Run: code from a link never runs by itself.
   */
  step?: number;
}

export type ShareErrorCode = 'malformed' | 'unknown-version' | 'corrupt' | 'invalid';

export type DecodeResult = { ok: true; state: ShareState; version: number } | { ok: false; code: ShareErrorCode; message: string };

export const SHARE_FORMAT_VERSION = 1;

async function pipeThrough(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export async function encodeShareState(state: ShareState): Promise<string> {
  const payload: ShareState = { code: state.code };
  if (state.options && Object.keys(state.options).length > 0) payload.options = state.options;
  if (state.seed !== undefined) payload.seed = state.seed;
  if (state.view !== undefined) payload.view = state.view;
  if (state.step !== undefined) payload.step = state.step;
  const json = new TextEncoder().encode(JSON.stringify(payload));
  const packed = await pipeThrough(json, new CompressionStream('deflate-raw'));
  return `${SHARE_FORMAT_VERSION}.${toBase64Url(packed)}`;
}

function validateV1(value: unknown): ShareState | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the payload is not an object';
  const v = value as Record<string, unknown>;
  if (typeof v.code !== 'string') return 'the payload has no "code" string';
  if (v.options !== undefined && (typeof v.options !== 'object' || v.options === null || Array.isArray(v.options))) return '"options" must be an object';
  if (v.seed !== undefined && !Number.isInteger(v.seed)) return '"seed" must be an integer';
  if (v.view !== undefined && typeof v.view !== 'string') return '"view" must be a string';
  // Added after version 1 shipped; optional, so every earlier link still decodes.
  if (v.step !== undefined && !(Number.isSafeInteger(v.step) && (v.step as number) >= 0)) return '"step" must be a whole number, 0 or more';
  const state: ShareState = { code: v.code };
  if (v.options !== undefined) state.options = v.options as Record<string, unknown>;
  if (v.seed !== undefined) state.seed = v.seed as number;
  if (v.view !== undefined) state.view = v.view as string;
  if (v.step !== undefined) state.step = v.step as number;
  return state;
}

/** One decoder per published version; never remove an entry. */
const DECODERS: Record<number, (json: unknown) => ShareState | string> = {
  1: validateV1,
};

export async function decodeShareState(text: string): Promise<DecodeResult> {
  if (text.trim() === '') {
    return { ok: false, code: 'corrupt', message: 'The link is damaged: it names this playground but holds no code. It may have been cut off when copied.' };
  }
  const match = /^(\d{1,4})\.([A-Za-z0-9_-]*)$/.exec(text.trim());
  if (!match) {
    return { ok: false, code: 'malformed', message: 'The link does not hold playground state in a form Roundtrip recognises.' };
  }
  const version = Number(match[1]);
  const decoder = DECODERS[version];
  if (!decoder) {
    return {
      ok: false,
      code: 'unknown-version',
      message: `The link was made by a newer Roundtrip (share format ${version}; this page reads up to ${SHARE_FORMAT_VERSION}). Reload the page to get the latest version.`,
    };
  }
  const packed = fromBase64Url(match[2]!);
  if (!packed || packed.length === 0) {
    return { ok: false, code: 'corrupt', message: 'The link is damaged: its data is not valid base64url. It may have been cut off when copied.' };
  }
  let json: unknown;
  try {
    const raw = await pipeThrough(packed, new DecompressionStream('deflate-raw'));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return { ok: false, code: 'corrupt', message: 'The link is damaged: its data does not decompress. It may have been cut off when copied.' };
  }
  const state = decoder(json);
  if (typeof state === 'string') {
    return { ok: false, code: 'invalid', message: `The link's data is not playground state: ${state}.` };
  }
  return { ok: true, state, version };
}
