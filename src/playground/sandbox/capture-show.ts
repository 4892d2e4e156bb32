/**
 * Makes the bytes a snippet passes to `show()` (roundtrip/playground, options/show.ts) a 'wire' source of the
 * visualizers, read by the inspector's own readers (src/playground/inspect/): HTTP/1 messages become the writes
 * of one connection and the rows of the HTTP/1 connection table they fire (http1.ts `Http1Machines`), HTTP/2
 * frames and HPACK blocks become the 'h2-frame' events (with their fields, byte ranges and HPACK steps) that
 * the Frames view and the HPACK stepper draw (h2.ts `readFrames`, to-recording.ts `H2Tracer`). So a snippet
 * that only calls the codecs gets the same views a simulation or a pasted capture gets.
 *
 * Each label (per format) is one connection: its bytes are read in the order shown, one direction after the
 * other as the snippet wrote them, so the second HPACK block of a direction is decoded with the dynamic table
 * the first one filled (RFC 7541 §2.2), as its peer would. A block shown alone is put in the HEADERS frame
 * that would carry it (stream 1, then 3, 5...: RFC 9113 §5.1.1), END_HEADERS set; only that 9-octet frame
 * header is added. Bytes carry no time: each message or frame is one step (`STEP_MS`) after the one before.
 *
 * This module imports roundtrip/wire: in the sandbox it is part of the wire chunk (chunk-wire.ts), so the core
 * runtime stays small, and it is handed to the run with the chunk.
 */
import { encodeHttp2Frame, HTTP2_FLAGS, binaryString, type TraceEvent } from 'roundtrip/wire';
import type { ShowOptions } from '../options/show';
import { h2ConnectionReadStates, readFrames, type H2ReadState } from '../inspect/h2';
import { Http1Machines } from '../inspect/http1';
import { H2Tracer, MessageWriter, STEP_MS, type Unsequenced } from '../inspect/to-recording';
import type { Capture, CaptureSource } from './capture';

export type ShowRecorder = (bytes: Uint8Array, options: ShowOptions) => void;

const CONNECTION_ID = 'c1';

const DEFAULT_LABELS: Record<ShowOptions['as'], string> = {
  http1: 'HTTP/1.1 messages (show)',
  http2: 'HTTP/2 frames (show)',
  hpack: 'HPACK blocks (show)',
};

/** One shown connection: its source, its clock of steps, and what each direction has written so far. */
interface Shown {
  readonly source: CaptureSource;
  readonly as: ShowOptions['as'];
  seq: number;
  /** Time of the last write, in virtual ms. */
  at: number;
  /** HTTP/1: both sides' engines, run through the connection table write by write, and the writes so far. */
  readonly machines: Http1Machines;
  writes: number;
  readonly writer: MessageWriter;
  /** HTTP/2 and HPACK: what each direction's frames so far left behind (its HPACK table; each endpoint's stream states). */
  readonly read: Record<'client' | 'server', H2ReadState>;
  tracer?: H2Tracer;
  /** HPACK: the stream the next block's HEADERS frame goes on, per direction. */
  readonly nextStream: Record<'client' | 'server', number>;
  /**
   * Set when a direction's bytes did not read: what follows depends on them (an HPACK block on the blocks before
   * it, a frame on where the previous one ended), so that direction draws nothing more and says so once.
   */
  readonly failed: Record<'client' | 'server', boolean>;
}

const startsWithPreface = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x52 && bytes[2] === 0x49 && bytes[3] === 0x20;

/**
 * The function the run's options context calls for `show()`. `warn` tells the reader on the run's console
 * when shown bytes do not read as what `as` says (and so are not drawn); the snippet keeps running.
 */
export function createShowRecorder(capture: Capture, warn: (text: string) => void): ShowRecorder {
  const connections = new Map<string, Shown>();

  const connection = (options: ShowOptions, first: Uint8Array): Shown => {
    const label = options.label ?? DEFAULT_LABELS[options.as];
    const key = `${options.as}\u0000${label}`;
    let shown = connections.get(key);
    if (shown) return shown;
    const source = capture.addSource('wire', label, {
      httpVersion: options.as === 'http1' ? '1.1' : '2',
      shown: options.as,
      ...(options.as === 'http1' ? {} : { headerTableSize: 4096 }),
    });
    shown = {
      source,
      as: options.as,
      seq: 0,
      at: 0,
      machines: new Http1Machines(),
      writes: 0,
      writer: new MessageWriter(),
      read: h2ConnectionReadStates(),
      nextStream: { client: 1, server: 1 },
      failed: { client: false, server: false },
    };
    connections.set(key, shown);
    if (options.as === 'http1') {
      push(shown, [{ type: 'connection-opening', at: 0, connectionId: CONNECTION_ID, from: 'client', to: 'server', address: 'server', rtt: 0 }]);
    } else {
      shown.tracer = new H2Tracer(CONNECTION_ID);
      const prefaceComes = options.as === 'http2' && (options.from ?? 'client') === 'client' && startsWithPreface(first);
      push(shown, shown.tracer.open(prefaceComes));
    }
    return shown;
  };

  const push = (shown: Shown, events: readonly Unsequenced[]): void => {
    for (const event of events) shown.source.push({ ...event, seq: ++shown.seq } as TraceEvent);
  };

  const http1 = (shown: Shown, bytes: Uint8Array, from: 'client' | 'server'): void => {
    shown.at += STEP_MS;
    push(shown, shown.writer.write(CONNECTION_ID, from, binaryString(bytes), shown.at, shown.at + STEP_MS / 2));
    for (const row of shown.machines.add({ from, bytes }, shown.writes++)) {
      push(shown, [
        { type: 'transition', at: shown.at + STEP_MS / 2, machine: row.machine, connectionId: CONNECTION_ID, from: row.from, input: row.input, to: row.to },
      ]);
    }
  };

  const http2 = (shown: Shown, frames: Uint8Array, from: 'client' | 'server', what: string): void => {
    if (shown.failed[from]) return;
    // Only the new bytes are read: the decoder and stream states carry on from the earlier ones.
    const reading = readFrames(frames, { sender: from, connectionId: CONNECTION_ID, state: shown.read[from] });
    if (reading.problem) {
      shown.failed[from] = true;
      warn(`show(${what}): ${reading.problem.message} These bytes, and what this side shows after them with the same label, are not drawn.`);
      return;
    }
    const out: Unsequenced[] = [];
    for (const e of reading.events) {
      if (e.type === 'h2-frame' || e.type === 'h2-preface') shown.at += STEP_MS;
      out.push(...shown.tracer!.add(e, shown.at, from));
    }
    out.push(...shown.tracer!.settle());
    push(shown, out);
  };

  return (bytes, options) => {
    const from = options.from ?? 'client';
    const shown = connection(options, bytes);
    if (options.as === 'http1') return http1(shown, bytes, from);
    if (options.as === 'http2') return http2(shown, bytes, from, "bytes, { as: 'http2' }");
    const streamId = shown.nextStream[from];
    shown.nextStream[from] += 2;
    const frame = encodeHttp2Frame({ type: 'HEADERS', streamId, flags: HTTP2_FLAGS.END_HEADERS, headerBlockFragment: bytes });
    http2(shown, frame, from, "block, { as: 'hpack' }");
  };
}
