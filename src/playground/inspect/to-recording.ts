/**
 * Inspected input as a `Recording` (src/playground/recording/model.ts), the value every visualizer draws:
 * one wire source whose events are what the simulator would have traced for the same bytes. HTTP/1 bytes
 * become the writes of each side ('bytes-sent') and the rows of the connection table they fire
 * ('transition'); HTTP/2 frames become 'h2-frame' events (h2.ts); a HAR becomes request and connection events
 * (har.ts).
 *
 * Pasted bytes carry no timing, so each write or frame is placed 1 ms after the one before: the views keep
 * their order and spacing, and the page says the times are steps, not measurements.
 */
import type { TraceEvent } from 'roundtrip/wire';
import { binaryString } from 'roundtrip/wire';
import type { Recording, WireSource } from '../recording/model';
import type { MachineStep, Segment } from './http1';

export const SOURCE_ID = 'inspect';

export function recordingOf(label: string, events: readonly TraceEvent[], options?: WireSource['options']): Recording {
  const source: WireSource = { id: SOURCE_ID, kind: 'wire', label, events, ...(options ? { options } : {}) };
  return { sources: [source], steps: events.map((_, index) => ({ sourceId: SOURCE_ID, index })) };
}

/** One HTTP/1 connection: the opening, each side's writes in order, and the table rows each write fired. */
export function http1Events(segments: readonly Segment[], machine: readonly MachineStep[], address = 'server'): TraceEvent[] {
  const events: TraceEvent[] = [];
  let seq = 0;
  const connectionId = 'c1';
  events.push({ type: 'connection-opening', seq: ++seq, at: 0, connectionId, from: 'client', to: 'server', address, rtt: 0 });
  segments.forEach((segment, i) => {
    const at = i + 1;
    events.push({ type: 'bytes-sent', seq: ++seq, at, connectionId, from: segment.from, data: binaryString(segment.bytes) });
    for (const m of machine) {
      if (m.after === i) events.push({ type: 'transition', seq: ++seq, at, machine: m.machine, connectionId, from: m.from, input: m.input, to: m.to });
    }
  });
  return events;
}
