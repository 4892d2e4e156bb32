/**
 * Inspected input as a `Recording` (src/playground/recording/model.ts), the value every visualizer draws:
 * one wire source whose events are what the simulator would have traced for the same bytes. HTTP/1 bytes
 * become the writes of each side and the rows of the connection table they fire ('transition'); HTTP/2 frames
 * become 'h2-frame' events (h2.ts for one side, h2-connection.ts for both); a HAR becomes request and connection events (har.ts).
 *
 * Each message (HTTP/1, curl, HAR) or frame (HTTP/2) is also traced the way the simulator traces anything a
 * side sends (net/tcp.ts): the bytes it wrote ('bytes-sent'), the TCP segment that carried them
 * ('segment-sent') and its arrival at the peer ('segment-arrived'). That is what the Sequence view draws
 * arrows from, labelled by what the bytes start with (viz/timeline/labels.ts): "GET /todos/1 HTTP/1.1",
 * "HTTP/1.1 200 OK", "HEADERS s1". One message is one segment here, whatever its size: a capture does not say
 * how TCP cut it.
 *
 * Pasted bytes carry no timing, so each message or frame is placed `STEP_MS` after the one before and
 * reaches the peer half a step later: the views keep their order and spacing, and the page says the times are
 * steps, not measurements.
 */
import type { TraceEvent } from 'roundtrip/wire';
import { binaryString, HTTP2_CLIENT_PREFACE } from 'roundtrip/wire';
import type { Recording, WireSource } from '../recording/model';
import type { MachineStep, Segment } from './http1';

export const SOURCE_ID = 'inspect';

/**
 * Virtual ms between two pasted messages or frames. The Sequence view scales a short run to at most 4 px per
 * ms (timeline/SequenceView.tsx): 1 ms steps would put arrows 4 px apart and print their labels over each other.
 */
export const STEP_MS = 10;

export function recordingOf(label: string, events: readonly TraceEvent[], options?: WireSource['options']): Recording {
  const source: WireSource = { id: SOURCE_ID, kind: 'wire', label, events, ...(options ? { options } : {}) };
  return { sources: [source], steps: events.map((_, index) => ({ sourceId: SOURCE_ID, index })) };
}

/** A trace event before it has its place in the trace (`seq`), variant by variant. */
type WithoutSeq<E> = E extends unknown ? Omit<E, 'seq'> : never;
export type Unsequenced = WithoutSeq<TraceEvent>;

/**
 * Each direction of each connection is one byte stream: a write's segment starts where the previous write of
 * that side ended (the labeller in viz/timeline/labels.ts finds a message by that offset).
 */
export class MessageWriter {
  readonly #offsets = new Map<string, number>();

  /** The events of one message or frame that `from` wrote at `at` and the peer received at `arrives`. */
  write(connectionId: string, from: 'client' | 'server', data: string, at: number, arrives: number): Unsequenced[] {
    const key = `${connectionId}|${from}`;
    const offset = this.#offsets.get(key) ?? 0;
    this.#offsets.set(key, offset + data.length);
    const by = from === 'client' ? 'server' : 'client';
    const length = data.length;
    return [
      { type: 'bytes-sent', at, connectionId, from, data },
      { type: 'segment-sent', at, connectionId, from, offset, length, cwnd: 0, retransmission: false },
      { type: 'segment-arrived', at: arrives, connectionId, by, offset, length, inOrder: true },
    ];
  }
}

const numbered = (events: readonly Unsequenced[]): TraceEvent[] => events.map((e, i) => ({ ...e, seq: i + 1 }) as TraceEvent);

/**
 * One HTTP/1 connection: the opening, then each message in the order captured, one step apart, and the table
 * rows each side's write fired, when the write has reached the peer.
 */
export function http1Events(segments: readonly Segment[], machine: readonly MachineStep[], address = 'server'): TraceEvent[] {
  const events: Unsequenced[] = [];
  const connectionId = 'c1';
  const writer = new MessageWriter();
  events.push({ type: 'connection-opening', at: 0, connectionId, from: 'client', to: 'server', address, rtt: 0 });
  let t = 0;
  segments.forEach((segment, i) => {
    let start = 0;
    for (const length of segment.messages ?? [segment.bytes.length]) {
      t += STEP_MS;
      const data = binaryString(segment.bytes.subarray(start, start + length));
      start += length;
      // Arrivals first at their own time, after this write went out: events stay in time order.
      const [sent, segmentSent, arrived] = writer.write(connectionId, segment.from, data, t, t + STEP_MS / 2);
      events.push(sent!, segmentSent!, arrived!);
    }
    for (const m of machine) {
      if (m.after === i) events.push({ type: 'transition', at: t + STEP_MS / 2, machine: m.machine, connectionId, from: m.from, input: m.input, to: m.to });
    }
  });
  return numbered(events);
}

/**
 * HTTP/2 events read from one side's bytes (h2.ts), spaced a step apart, with an arrow per frame (and one for
 * the preface when the capture has it) from the side that sent them.
 *
 * A capture without the preface is still HTTP/2 from its first byte: the client's preface went before it
 * (RFC 9113 §3.4). That preface is traced as written (24 bytes, no segment, so no arrow), which is how the
 * views know to read the frames as HTTP/2 and not as HTTP/1 text; the page says the capture had none.
 */
export function h2Events(events: readonly TraceEvent[], sender: 'client' | 'server'): TraceEvent[] {
  const connectionId = events.find((e) => 'connectionId' in e)?.connectionId ?? 'c1';
  const tracer = new H2Tracer(connectionId);
  const out = tracer.open(events.some((e) => e.type === 'h2-preface'));
  for (const e of events) out.push(...tracer.add(e, e.at * STEP_MS, sender));
  out.push(...tracer.settle());
  return numbered(out);
}

/**
 * HTTP/2 events of both sides of one connection (h2-connection.ts): each frame is an arrow from the side that
 * sent it. Untimed readings count steps (`at` 1, 2, 3...), spaced `STEP_MS` apart as `h2Events` does; timed ones
 * (a capture's timestamps, in ms) keep their times, and a frame is drawn arriving when it was captured, since
 * one capture point does not say how long it took to cross.
 */
export function h2ConnectionEvents(events: readonly TraceEvent[], timed: boolean): TraceEvent[] {
  const connectionId = events.find((e) => 'connectionId' in e)?.connectionId ?? 'c1';
  const tracer = new H2Tracer(connectionId);
  const out = tracer.open(events.some((e) => e.type === 'h2-preface'));
  for (const e of events) {
    const at = timed ? e.at : e.at * STEP_MS;
    const sender = e.type === 'h2-frame' && e.side === 'server' ? 'server' : 'client';
    out.push(...tracer.add(e, at, sender, timed ? at : undefined));
  }
  out.push(...tracer.settle());
  return numbered(out);
}

/**
 * Traces read HTTP/2 events (h2.ts) as they come, for a reader that gets frames a few at a time (the
 * playground's `show`, sandbox/capture-show.ts) as much as for a whole capture (`h2Events`): each frame is
 * written by its side and arrives at the peer half a step later, just before the next frame goes out.
 */
export class H2Tracer {
  readonly #connectionId: string;
  readonly #writer = new MessageWriter();
  #arrival: Unsequenced | undefined;

  constructor(connectionId: string) {
    this.#connectionId = connectionId;
  }

  /** The connection's opening, and the preface as written when the bytes to come do not start with it. */
  open(prefaceComes: boolean): Unsequenced[] {
    const connectionId = this.#connectionId;
    const out: Unsequenced[] = [{ type: 'connection-opening', at: 0, connectionId, from: 'client', to: 'server', address: 'server', rtt: 0 }];
    if (!prefaceComes) out.push({ type: 'bytes-sent', at: 0, connectionId, from: 'client', data: binaryString(HTTP2_CLIENT_PREFACE) });
    return out;
  }

  /**
   * One read event placed at `at`; a frame (or the preface) also as the bytes `sender` wrote, arriving at the
   * peer at `arrives` (half a step later unless given).
   */
  add(e: TraceEvent, at: number, sender: 'client' | 'server', arrives = at + STEP_MS / 2): Unsequenced[] {
    const out: Unsequenced[] = [];
    if (e.type === 'h2-preface' || e.type === 'h2-frame') {
      out.push(...this.settle());
      const from = e.type === 'h2-preface' ? 'client' : sender;
      const [sent, segment, arrived] = this.#writer.write(this.#connectionId, from, e.data, at, arrives);
      out.push(sent!, segment!);
      this.#arrival = arrived;
    }
    const { seq: _, ...rest } = e;
    out.push({ ...rest, at } as Unsequenced);
    return out;
  }

  /** The last frame's arrival at the peer, once nothing else is sent before it. */
  settle(): Unsequenced[] {
    const arrival = this.#arrival;
    this.#arrival = undefined;
    return arrival ? [arrival] : [];
  }
}
