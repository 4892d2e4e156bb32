/**
 * Running a reading for the /inspect/ page (Inspector.tsx): in the module worker (worker.ts) where there is one,
 * answered in pieces that go into a RecordingStore one task at a time, or else here on the page.
 */
import { MAX_RECORDING_EVENTS, RecordingStore } from '../viz/recording';
import type { Recording, SourceInfo } from '../recording/model';
import type { InspectResult } from './inspect';
import { type ChunkPart, recordingChunks, requestText, sourceInfos, type WorkerMessage, type WorkerNext, type WorkerRequest } from './chunks';

/**
 * A finished store holding every event of a reading. Sized to the reading, not to the playground's 50,000-event
 * cap: that cap guards the page against a snippet that never stops emitting, while a reading is already whole
 * (and bounded by MAX_INPUT_BYTES). Under that cap a 5,380-entry HAR was silently cut after its 4,553rd entry.
 */
export function storeOf(recording: Recording): RecordingStore {
  const store = emptyStore(sourceInfos(recording), recording.steps.length);
  for (const parts of recordingChunks(recording)) appendParts(store, parts);
  store.finish();
  return store;
}

function emptyStore(sources: readonly SourceInfo[], events: number): RecordingStore {
  const store = new RecordingStore({ maxEvents: Math.max(MAX_RECORDING_EVENTS, events) });
  for (const info of sources) store.addSource(info);
  return store;
}

function appendParts(store: RecordingStore, parts: readonly ChunkPart[]): void {
  for (const part of parts) store.append(part.sourceId, part.events);
}

/** A reading as the page shows it: what was found, and the store its recording went into. */
export interface Reading {
  readonly result: Omit<InspectResult, 'recording'>;
  readonly store?: RecordingStore;
}

let worker: Worker | undefined;
let nextId = 0;

/**
 * After the browser has drawn a frame (or at once in a hidden tab, which draws none): what the page does between
 * two pieces of a reading, so no frame holds more than one.
 */
function afterFrame(then: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') setTimeout(then, 0);
  else requestAnimationFrame(() => setTimeout(then, 0));
}

/**
 * Reads `input` in the worker (or, where module workers are unavailable, here). The worker answers in pieces
 * (chunks.ts), one when asked: each chunk is appended in its own task and the next asked for after a frame, so no
 * one task copies the whole recording. `onProgress` hears how many events are in of how many.
 */
export async function runInspect(input: WorkerRequest['input'], onProgress?: (received: number, total: number) => void): Promise<Reading> {
  if (typeof Worker !== 'undefined') {
    try {
      worker ??= new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'roundtrip-inspect' });
      const id = ++nextId;
      const w = worker;
      return await new Promise<Reading>((resolve, reject) => {
        let reading: { result: Reading['result']; store?: RecordingStore; total: number } | undefined;
        const next = () => {
          if (id === nextId) return w.postMessage({ id, type: 'next' } satisfies WorkerNext);
          // A newer reading has taken the worker: this one ends here, and lets go of what it holds (the page drops
          // its answer anyway).
          w.removeEventListener('message', onMessage);
          resolve({ result: reading!.result });
        };
        const onMessage = (event: MessageEvent<WorkerMessage>) => {
          const message = event.data;
          if (message.id !== id) return;
          if (message.type === 'result') {
            reading = { result: message.result, total: message.events, ...(message.sources ? { store: emptyStore(message.sources, message.events) } : {}) };
            if (message.more) return next();
          } else if (message.type === 'replay') {
            const replay = reading!.result.replay;
            reading!.result = { ...reading!.result, replay: { from: message.from, exchanges: [...(replay?.exchanges ?? []), ...message.exchanges] } };
            return afterFrame(next);
          } else if (message.type === 'chunk') {
            if (reading?.store) {
              appendParts(reading.store, message.parts);
              onProgress?.(reading.store.length, reading.total);
            }
            return afterFrame(next);
          }
          w.removeEventListener('message', onMessage);
          reading?.store?.finish();
          resolve(reading!);
        };
        w.addEventListener('message', onMessage);
        w.addEventListener('error', (e) => reject(new Error(e.message || 'the worker failed')), { once: true });
        w.postMessage({ id, input } satisfies WorkerRequest);
      });
    } catch {
      worker = undefined;
    }
  }
  const { inspectAsync } = await import('./inspect');
  const { recording, ...result } = await inspectAsync({ ...input, text: requestText(input) });
  return { result, ...(recording ? { store: storeOf(recording) } : {}) };
}
