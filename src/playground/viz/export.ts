/**
 * Exports of a run's recording: everything as Roundtrip's own versioned JSON, and the wire sources as HAR 1.2
 * (what Chrome DevTools, Firefox and HAR viewers import).
 *
 * The JSON keeps each source whole (the events as recorded) plus the interleaving, so a reader or a test can
 * rebuild exactly the steps the panel played. Steps are [source number, event index] pairs rather than objects:
 * a 50,000-step recording stays a few hundred KB.
 *
 * The HAR reuses the simulator's builder (src/wire/trace/har.ts) for each wire source and merges them with one
 * HAR page per simulation, so a comparison (HTTP/1.1 vs HTTP/2) opens in a HAR viewer as two page loads.
 */
import { toHar, type Har, type HarEntry, type TraceEvent } from 'roundtrip/wire';
import type { Recording, SourceInfo, WireSource } from '../recording/model';

export const RECORDING_FORMAT = 'roundtrip-recording';
export const RECORDING_FORMAT_VERSION = 1;

export interface RecordingJson {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: typeof RECORDING_FORMAT_VERSION;
  /** Which playground recorded it, when known. */
  readonly playground?: string;
  readonly sources: readonly (SourceInfo & { readonly events: readonly unknown[] })[];
  /** Every step in arrival order: [index into `sources`, index into that source's `events`]. */
  readonly steps: readonly (readonly [number, number])[];
}

export function recordingToJson(recording: Recording, playground?: string): RecordingJson {
  const numbers = new Map(recording.sources.map((s, i) => [s.id, i]));
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_FORMAT_VERSION,
    ...(playground ? { playground } : {}),
    sources: recording.sources.map((s) => ({ ...s })),
    steps: recording.steps.map((step) => [numbers.get(step.sourceId)!, step.index] as const),
  };
}

/** The inverse of recordingToJson, checking what it reads; throws with what is wrong and where. */
export function recordingFromJson(value: unknown): Recording {
  const fail = (what: string): never => {
    throw new TypeError(`Not a Roundtrip recording: ${what}.`);
  };
  if (typeof value !== 'object' || value === null) fail('expected an object');
  const json = value as Partial<RecordingJson>;
  if (json.format !== RECORDING_FORMAT) fail(`"format" must be "${RECORDING_FORMAT}"`);
  if (json.version !== RECORDING_FORMAT_VERSION) fail(`version ${String(json.version)} is not one this page reads (${RECORDING_FORMAT_VERSION})`);
  if (!Array.isArray(json.sources) || !Array.isArray(json.steps)) fail('"sources" and "steps" must be arrays');
  const sources = json.sources!;
  const steps = json.steps!.map(([s, i], n) => {
    const source = sources[s];
    if (!source || !Number.isInteger(i) || i < 0 || i >= source.events.length) fail(`step ${n} points at no event`);
    return { sourceId: source!.id, index: i };
  });
  return { sources: sources as unknown as Recording['sources'], steps };
}

const EPOCH_DEFAULT = Date.UTC(2026, 0, 1);

/** HAR 1.2 of every wire source, one page per simulation; undefined when no simulation made a request. */
export function recordingToHar(recording: Recording): Har | undefined {
  const wire = recording.sources.filter((s): s is WireSource => s.kind === 'wire');
  const pages: { startedDateTime: string; id: string; title: string; pageTimings: { onContentLoad: number; onLoad: number } }[] = [];
  const entries: (HarEntry & { pageref: string })[] = [];
  let creator: Har['log']['creator'] | undefined;
  for (const source of wire) {
    const epoch = typeof source.options?.epoch === 'number' ? source.options.epoch : EPOCH_DEFAULT;
    const har = toHar(source.events as readonly TraceEvent[], { epoch });
    creator ??= har.log.creator;
    if (har.log.entries.length === 0) continue;
    // A page's onLoad: when its last request ended, relative to the page's start (HAR 1.2 pageTimings).
    const end = Math.max(...har.log.entries.map((e) => Date.parse(e.startedDateTime) + e.time));
    const start = Math.min(...har.log.entries.map((e) => Date.parse(e.startedDateTime)));
    pages.push({
      startedDateTime: new Date(start).toISOString(),
      id: source.id,
      title: source.label,
      pageTimings: { onContentLoad: -1, onLoad: Math.round((end - start) * 1000) / 1000 },
    });
    for (const entry of har.log.entries) entries.push({ ...entry, pageref: source.id });
  }
  if (entries.length === 0 || !creator) return undefined;
  return {
    log: {
      version: '1.2',
      creator,
      ...{ pages },
      entries,
      comment: 'Virtual time: timings are simulated, not measured. One page per simulation of the playground run.',
    },
  } as Har;
}
