/**
 * How a reading crosses from the inspector's worker (worker.ts) to the page: the result without its recording
 * first, then the recording's events in chunks, in step order, then the end.
 *
 * One message holding the whole recording of a 10 MB HAR (59,182 events for 5,380 entries) took 218 ms to
 * arrive on the page: the browser copies a message's data in one piece on the receiving thread, and no frame is
 * drawn meanwhile. Chunks of CHUNK_EVENTS cost 10 to 50 ms each, and the page asks for each only after a frame
 * (WorkerNext): sent all at once, several arrived back to back and made one 225 ms frame on a busy machine. So
 * loading stays under the 200 ms frame budget of issue #30.
 */
import type { Recording, SourceInfo } from '../recording/model';
import type { InspectInput, InspectResult } from './inspect';
import type { ReplayExchange } from './replay';

/** Replay exchanges per message: a HAR entry's exchange is about the size of its events (headers and bodies). */
export const CHUNK_EXCHANGES = 200;

/** Events per message: 4,000 HAR events took 30 to 120 ms to copy on the page's thread (Chromium 156, a shared 2-core machine), so half that. */
export const CHUNK_EVENTS = 2000;

/** What the page asks: read `input`; without `text`, the text is the UTF-8 of `input.bytes` (a dropped file). */
export interface WorkerRequest {
  readonly id: number;
  readonly input: Omit<InspectInput, 'text'> & { readonly text?: string };
}

/** The page asks for the next message of reading `id` once it has taken the last one in and drawn a frame. */
export interface WorkerNext {
  readonly id: number;
  readonly type: 'next';
}

/** One run of consecutive steps of one source. */
export interface ChunkPart {
  readonly sourceId: string;
  readonly events: readonly unknown[];
}

export type WorkerMessage =
  /** The result; `sources` and `events` say what recording follows (none when `sources` is absent). */
  | {
      readonly id: number;
      readonly type: 'result';
      readonly result: Omit<InspectResult, 'recording'>;
      readonly sources?: readonly SourceInfo[];
      readonly events: number;
      /** More messages follow (the page asks for each): the recording's chunks, the replay's, the end. */
      readonly more: boolean;
    }
  | { readonly id: number; readonly type: 'chunk'; readonly parts: readonly ChunkPart[] }
  /** Part of the result's `replay` (every exchange with its headers and bodies: as large as the recording). */
  | { readonly id: number; readonly type: 'replay'; readonly from: string; readonly exchanges: readonly ReplayExchange[] }
  | { readonly id: number; readonly type: 'end' };

/** The text a request reads: its own, or its file's bytes decoded as the page used to (UTF-8, U+FFFD for what is not). */
export function requestText(input: WorkerRequest['input']): string {
  return input.text ?? (input.bytes ? new TextDecoder().decode(input.bytes) : '');
}

/**
 * The recording's events as chunks of at most `size` events, in the recording's step order: appending the parts
 * of every chunk, in order, to an empty RecordingStore gives back the same steps.
 */
export function* recordingChunks(recording: Recording, size = CHUNK_EVENTS): Generator<ChunkPart[]> {
  const events = new Map(recording.sources.map((s) => [s.id, s.events as readonly unknown[]]));
  let parts: ChunkPart[] = [];
  let count = 0;
  let run: { sourceId: string; events: unknown[] } | undefined;
  for (const step of recording.steps) {
    if (!run || run.sourceId !== step.sourceId) {
      run = { sourceId: step.sourceId, events: [] };
      parts.push(run);
    }
    run.events.push(events.get(step.sourceId)![step.index]);
    if (++count === size) {
      yield parts;
      parts = [];
      count = 0;
      run = undefined;
    }
  }
  if (parts.length > 0) yield parts;
}

/** The recording's sources without their events. */
export function sourceInfos(recording: Recording): SourceInfo[] {
  return recording.sources.map(({ events: _events, ...info }) => info);
}

/**
 * Every message the worker sends for one reading, in order: the result without its recording and its replay,
 * the recording's events in chunks, the replay's exchanges in chunks, the end. A result with neither is one
 * message. (A 5,380-entry HAR's replay alone, sent with the result, took 221 ms to arrive.)
 */
export function* workerMessages(id: number, result: InspectResult, size = CHUNK_EVENTS): Generator<WorkerMessage> {
  const { recording, replay, ...rest } = result;
  const exchanges = replay?.exchanges ?? [];
  if (!recording && exchanges.length <= CHUNK_EXCHANGES) {
    yield { id, type: 'result', result: replay ? { ...rest, replay } : rest, events: 0, more: false };
    return;
  }
  yield {
    id,
    type: 'result',
    result: replay ? { ...rest, replay: { from: replay.from, exchanges: [] } } : rest,
    ...(recording ? { sources: sourceInfos(recording) } : {}),
    events: recording?.steps.length ?? 0,
    more: true,
  };
  if (recording) for (const parts of recordingChunks(recording, size)) yield { id, type: 'chunk', parts };
  for (let i = 0; i < exchanges.length; i += CHUNK_EXCHANGES)
    yield { id, type: 'replay', from: replay!.from, exchanges: exchanges.slice(i, i + CHUNK_EXCHANGES) };
  yield { id, type: 'end' };
}
