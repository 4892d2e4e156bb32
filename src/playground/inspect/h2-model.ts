/**
 * What the HTTP/2 readers share (h2.ts reads one direction, h2-connection.ts both): cutting one direction's
 * bytes into frames with the byte offset of every header block fragment, decoding each field block with the
 * receiver's HPACK decoder (an error points at the byte of the block where it happens, mapped back into the
 * input), and a model of the connection as both endpoints see it:
 *
 * - stream states per endpoint (RFC 9113 §5.1): a frame is 'send' for its sender and 'recv' for its peer, so a
 *   server's HEADERS on stream 13 leaves the server's stream 'open' -> 'half_closed_local' with END_STREAM, and
 *   the client's 'open' -> 'half_closed_remote'. The receiver's verdict on a frame its state does not allow is
 *   the error RFC 9113 §5.1 names for it. When only one direction was captured, a stream the peer must have
 *   opened (odd ids for a client, even for a server) is opened by the peer's missing HEADERS (or PUSH_PROMISE)
 *   first, and the reading says so;
 * - flow control per direction (RFC 9113 §6.9): DATA (its whole payload, padding included, §6.9.1) uses the
 *   window the receiver gave: 65,535 for the connection (§6.9.2, SETTINGS cannot change it), the receiver's
 *   SETTINGS_INITIAL_WINDOW_SIZE for each stream (a change moves every stream window by the difference,
 *   §6.9.2), plus the receiver's WINDOW_UPDATE credit;
 * - frame size: a frame's payload may not exceed the receiver's SETTINGS_MAX_FRAME_SIZE (16,384 until the
 *   receiver says more, RFC 9113 §4.2, §6.5.2).
 */
import { FLAGS, HpackDecoder, parseFrame, streamTransition, type Frame, type HpackStep, type StreamEvent, type StreamState } from 'roundtrip/wire';
import { CLIENT_PREFACE } from 'roundtrip/wire';
import type { Unsequenced } from './to-recording';
import { countOf } from './words';
import { concat } from './bytes';
export { concat };

export type Sender = 'client' | 'server';

export interface H2Problem {
  readonly message: string;
  /** Byte offset in the input (in the sender's bytes, for a two-direction reading). */
  readonly offset: number;
  /** 1-based number of the frame it is in (0: the preface). */
  readonly frame: number;
  /** Whose bytes it is in (a two-direction reading; a one-direction reading leaves it out). */
  readonly sender?: Sender;
}

export interface FlowRow {
  /** 0: the connection. */
  readonly streamId: number;
  /** Octets of DATA payload the sender sent (padding included). */
  readonly dataSent: number;
  /**
   * What is left of the window the peer gave. One direction: the 65,535 octets a peer starts with (RFC 9113
   * §6.9.2), as the peer's SETTINGS and WINDOW_UPDATE frames are not in the capture. Both directions: the
   * peer's SETTINGS_INITIAL_WINDOW_SIZE (streams) plus its WINDOW_UPDATE credit.
   */
  readonly windowLeft: number;
  /** Credit the sender gave the peer with WINDOW_UPDATE. */
  readonly granted: number;
}

export const PREFACE = CLIENT_PREFACE;
export const INITIAL_WINDOW = 65_535; // RFC 9113 §6.9.2
export const DEFAULT_MAX_FRAME_SIZE = 16_384; // RFC 9113 §4.2
const MAX_FRAME = 0xff_ffff; // read whatever the peers agreed on: the largest frame RFC 9113 §4.2 allows
// SETTINGS identifiers (RFC 9113 §6.5.2).
const SETTINGS_HEADER_TABLE_SIZE = 0x1;
const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;

export const other = (s: Sender): Sender => (s === 'client' ? 'server' : 'client');

export function startsWithPreface(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x50 && bytes[1] === 0x52 && bytes[2] === 0x49;
}

/** One frame as read from its sender's bytes. */
export interface ParsedFrame {
  readonly frame: Frame;
  /** Where it starts and ends in the sender's bytes. */
  readonly start: number;
  readonly end: number;
  /** 1-based, in the sender's bytes. */
  readonly number: number;
  /** Field byte ranges, relative to the frame's start. */
  readonly ranges: { field: string; start: number; end: number }[];
  /** The decoded field block, on the frame that completes one (END_HEADERS). */
  block?: { fields: { name: string; value: string }[]; steps: HpackStep[] };
  /** Where this frame's header block fragment starts in the sender's bytes. */
  readonly fragmentAt?: number;
}

export interface ParsedDirection {
  readonly preface: boolean;
  readonly frames: ParsedFrame[];
  readonly problem?: H2Problem;
}

/** Cuts one direction's bytes into frames (no HPACK yet); stops at the first frame that does not read. */
export function parseDirection(bytes: Uint8Array): ParsedDirection {
  let at = 0;
  let preface = false;
  let problem: H2Problem | undefined;
  if (startsWithPreface(bytes)) {
    const got = bytes.subarray(0, PREFACE.length);
    const bad = PREFACE.findIndex((b, i) => got[i] !== b);
    if (bad >= 0) {
      problem = {
        message:
          bad >= got.length
            ? `The input starts like the client connection preface but ends after ${got.length} of its 24 octets (RFC 9113 §3.4).`
            : `The client connection preface is "PRI * HTTP/2.0\\r\\n\\r\\nSM\\r\\n\\r\\n" (RFC 9113 §3.4); octet ${bad} differs (0x${got[bad]!.toString(16).padStart(2, '0')} instead of 0x${PREFACE[bad]!.toString(16).padStart(2, '0')}).`,
        offset: bad,
        frame: 0,
      };
    } else {
      preface = true;
      at = PREFACE.length;
    }
  }
  const frames: ParsedFrame[] = [];
  while (!problem && at < bytes.length) {
    const r = parseFrame(bytes, at, MAX_FRAME, true);
    const number = frames.length + 1;
    if (r.kind === 'incomplete') {
      const length = at + 3 <= bytes.length ? (bytes[at]! << 16) | (bytes[at + 1]! << 8) | bytes[at + 2]! : undefined;
      problem = {
        message:
          length === undefined || at + 9 > bytes.length
            ? `Frame ${number} is cut short: ${countOf(bytes.length - at, 'octet')} ${bytes.length - at === 1 ? 'is' : 'are'} left, and a frame header alone is 9 (RFC 9113 §4.1).`
            : `Frame ${number} is cut short: its header announces a ${length}-octet payload, and only ${countOf(bytes.length - at - 9, 'octet')} ${bytes.length - at - 9 === 1 ? 'follows' : 'follow'} it.`,
        offset: at,
        frame: number,
      };
      break;
    }
    if (r.kind === 'error') {
      problem = { message: `Frame ${number} (at octet ${at}): ${r.error.message}`, offset: r.error.offset ?? at, frame: number };
      break;
    }
    if (r.kind === 'ignored') {
      at = r.end; // an unknown frame type is skipped, as RFC 9113 §5.5 requires
      continue;
    }
    const { frame } = r;
    const ranges = (r.fields ?? []).map((f) => ({ field: f.field, start: f.start - at, end: f.end - at }));
    let fragmentAt: number | undefined;
    if (frame.type === 'HEADERS' || frame.type === 'PUSH_PROMISE' || frame.type === 'CONTINUATION') {
      // The fragment sits right before the padding (RFC 9113 §6.2, §6.6, §6.10).
      const padding = frame.type === 'CONTINUATION' ? 0 : (frame.padding?.length ?? 0);
      fragmentAt = r.end - padding - frame.headerBlockFragment.length;
    }
    frames.push({ frame, start: at, end: r.end, number, ranges, ...(fragmentAt === undefined ? {} : { fragmentAt }) });
    at = r.end;
  }
  return { preface, frames, ...(problem ? { problem } : {}) };
}

/**
 * Decodes the field blocks of one direction's frames in order with `hpack` (the receiver's decoder, whose table
 * the sender's encoder filled, RFC 7541 §2.2). A block that does not decode is reported at the byte where
 * decoding failed, and the frames after it are dropped: every later block depends on it.
 */
export function decodeBlocks(frames: ParsedFrame[], hpack: HpackDecoder): { blocks: number; problem?: H2Problem } {
  let fragments: { bytes: Uint8Array; at: number }[] = [];
  let blocks = 0;
  for (const [i, entry] of frames.entries()) {
    const { frame } = entry;
    if (frame.type !== 'HEADERS' && frame.type !== 'PUSH_PROMISE' && frame.type !== 'CONTINUATION') continue;
    fragments.push({ bytes: frame.headerBlockFragment, at: entry.fragmentAt ?? entry.start + 9 });
    if (!(frame.flags & FLAGS.END_HEADERS)) continue;
    const parts = fragments;
    fragments = [];
    try {
      entry.block = hpack.decodeAnnotated(concat(parts.map((p) => p.bytes)));
      blocks++;
    } catch (e) {
      const inBlock = e instanceof Error && 'offset' in e && typeof e.offset === 'number' ? e.offset : 0;
      frames.length = i + 1;
      return {
        blocks,
        problem: {
          message: `The field block that frame ${entry.number} completes does not decode: ${e instanceof Error ? e.message : String(e)} A block depends on every block before it, so a capture that starts mid-connection cannot be decoded.`,
          offset: blockOffset(parts, inBlock),
          frame: entry.number,
        },
      };
    }
  }
  return { blocks };
}

/** Where byte `offset` of a block made of `parts` is in the input (a block may span CONTINUATION frames). */
function blockOffset(parts: readonly { bytes: Uint8Array; at: number }[], offset: number): number {
  let left = offset;
  for (const p of parts) {
    if (left < p.bytes.length) return p.at + left;
    left -= p.bytes.length;
  }
  const last = parts.at(-1);
  return last ? last.at + last.bytes.length : 0;
}

/** The HPACK table limit a receiver set for its peer's blocks: its SETTINGS_HEADER_TABLE_SIZE, else 4,096. */
export function headerTableSizeOf(frames: readonly ParsedFrame[], fallback = 4096): number {
  for (const { frame } of frames) {
    if (frame.type !== 'SETTINGS' || frame.flags & FLAGS.ACK) continue;
    const s = frame.settings.find((p) => p.id === SETTINGS_HEADER_TABLE_SIZE);
    if (s) return s.value;
  }
  return fallback;
}

/** The stream-state inputs a frame is, on the stream they concern (RFC 9113 §5.1). */
function streamInputs(frame: Frame): { streamId: number; input: StreamEvent }[] {
  const ends = (frame.flags & FLAGS.END_STREAM) !== 0;
  switch (frame.type) {
    case 'HEADERS':
      return [{ streamId: frame.streamId, input: 'HEADERS' }, ...(ends ? [{ streamId: frame.streamId, input: 'END_STREAM' as const }] : [])];
    case 'DATA':
      return [{ streamId: frame.streamId, input: 'DATA' }, ...(ends ? [{ streamId: frame.streamId, input: 'END_STREAM' as const }] : [])];
    case 'PUSH_PROMISE':
      return [{ streamId: frame.promisedStreamId, input: 'PUSH_PROMISE' }];
    case 'RST_STREAM':
      return [{ streamId: frame.streamId, input: 'RST_STREAM' }];
    case 'PRIORITY':
      return [{ streamId: frame.streamId, input: 'PRIORITY' }];
    case 'WINDOW_UPDATE':
      return frame.streamId === 0 ? [] : [{ streamId: frame.streamId, input: 'WINDOW_UPDATE' }];
    default:
      return [];
  }
}

const STATE_WORDS: Record<StreamState, string> = {
  idle: 'idle',
  reserved_local: 'reserved (local)',
  reserved_remote: 'reserved (remote)',
  open: 'open',
  half_closed_local: 'half-closed (local)',
  half_closed_remote: 'half-closed (remote)',
  closed: 'closed',
};

/** Who opens a stream id: the client odd ones, the server even ones (RFC 9113 §5.1.1). */
const opener = (streamId: number): Sender => (streamId % 2 === 1 ? 'client' : 'server');

/** Flow-control bookkeeping of one direction: what the sender sent and what its peer granted. */
class Flow {
  /** Per stream (0: the connection): DATA octets sent, WINDOW_UPDATE credit the receiver gave. */
  readonly sent = new Map<number, number>([[0, 0]]);
  readonly receiverGranted = new Map<number, number>([[0, 0]]);
  /** Credit the sender itself gave its peer (its own WINDOW_UPDATE frames), for the FlowRow. */
  readonly senderGranted = new Map<number, number>([[0, 0]]);
  /** The receiver's SETTINGS_INITIAL_WINDOW_SIZE (stream windows) and SETTINGS_MAX_FRAME_SIZE. */
  initial = INITIAL_WINDOW;
  maxFrameSize = DEFAULT_MAX_FRAME_SIZE;

  window(streamId: number): number {
    const base = streamId === 0 ? INITIAL_WINDOW : this.initial;
    return base + (this.receiverGranted.get(streamId) ?? 0) - (this.sent.get(streamId) ?? 0);
  }

  rows(): FlowRow[] {
    const ids = new Set([...this.sent.keys(), ...this.senderGranted.keys()]);
    return [...ids]
      .sort((a, b) => a - b)
      .map((streamId) => ({
        streamId,
        dataSent: this.sent.get(streamId) ?? 0,
        windowLeft: this.window(streamId),
        granted: this.senderGranted.get(streamId) ?? 0,
      }));
  }
}

const add = (m: Map<number, number>, key: number, n: number) => m.set(key, (m.get(key) ?? 0) + n);

/**
 * The connection as both endpoints see it, fed one frame at a time in the order they happened (or the best
 * order known). `bothSides`: both directions are in the capture, so the peer's SETTINGS and WINDOW_UPDATE
 * govern each direction's DATA; otherwise the defaults stand in for them, and a flagged window or frame size
 * says the peer's frames might have allowed it.
 */
export class H2ConnectionModel {
  readonly states: Record<Sender, Map<number, StreamState>>;
  readonly flow: Record<Sender, Flow> = { client: new Flow(), server: new Flow() };
  readonly problems: H2Problem[] = [];
  /** Streams opened for a peer whose opening frame is not in the capture. */
  readonly inferred: { streamId: number; by: Sender }[] = [];
  readonly #connectionId: string;
  readonly #bothSides: boolean;
  /** Whether the order of frames across directions is known (times, or one direction): windows are then checked frame by frame. */
  readonly #ordered: boolean;
  readonly #flagged = new Set<string>();

  constructor(connectionId: string, options: { bothSides: boolean; ordered: boolean; states?: Partial<Record<Sender, Map<number, StreamState>>> }) {
    this.#connectionId = connectionId;
    this.#bothSides = options.bothSides;
    this.#ordered = options.ordered;
    this.states = { client: options.states?.client ?? new Map(), server: options.states?.server ?? new Map() };
  }

  /** One frame `sender` sent: its stream transitions for both endpoints, and what it does to the windows. */
  frame(sender: Sender, parsed: ParsedFrame, at: number): Unsequenced[] {
    const out: Unsequenced[] = [];
    const { frame } = parsed;
    const peer = other(sender);
    const where = { offset: parsed.start, frame: parsed.number, ...(this.#bothSides ? { sender } : {}) };
    for (const { streamId, input } of streamInputs(frame)) {
      if (!this.#bothSides && input !== 'PRIORITY' && opener(streamId) === peer && (this.states[sender].get(streamId) ?? 'idle') === 'idle') {
        // The peer opened this stream with a frame that is not in the capture: HEADERS, or PUSH_PROMISE for a
        // server's even stream (RFC 9113 §5.1.1).
        const opening: StreamEvent = peer === 'client' ? 'HEADERS' : 'PUSH_PROMISE';
        out.push(...this.#step(peer, streamId, opening, 'send', at), ...this.#step(sender, streamId, opening, 'recv', at));
        this.inferred.push({ streamId, by: peer });
      }
      out.push(...this.#step(sender, streamId, input, 'send', at));
      const from = this.states[peer].get(streamId) ?? 'idle';
      const r = streamTransition(from, input, 'recv');
      if (!r.ok) {
        this.problems.push({
          ...where,
          message: `Frame ${parsed.number} (${frame.type} on stream ${streamId}${input === 'END_STREAM' ? ', END_STREAM' : ''}) reaches the ${peer} with its stream ${STATE_WORDS[from]}: a ${r.scope} error of type ${r.code} (RFC 9113 §5.1).`,
        });
        continue;
      }
      out.push(...this.#step(peer, streamId, input, 'recv', at));
    }
    this.#account(sender, parsed, where);
    return out;
  }

  #step(side: Sender, streamId: number, input: StreamEvent, direction: 'send' | 'recv', at: number): Unsequenced[] {
    const from = this.states[side].get(streamId) ?? 'idle';
    const r = streamTransition(from, input, direction);
    if (!r.ok || r.next === from) return [];
    this.states[side].set(streamId, r.next);
    return [{ type: 'h2-stream-transition', at, connectionId: this.#connectionId, side, streamId, from, input, direction, to: r.next }];
  }

  #account(sender: Sender, parsed: ParsedFrame, where: Omit<H2Problem, 'message'>): void {
    const { frame } = parsed;
    const mine = this.flow[sender];
    const theirs = this.flow[other(sender)];
    const length = parsed.end - parsed.start - 9;
    const unseen = this.#bothSides ? '' : ` unless the ${other(sender)}'s SETTINGS, which this capture does not hold, allowed more`;
    if (length > mine.maxFrameSize) {
      this.problems.push({
        ...where,
        message: `Frame ${parsed.number} (${frame.type} on stream ${frame.streamId}) carries ${length.toLocaleString('en-US')} octets, over the ${mine.maxFrameSize.toLocaleString('en-US')} the ${other(sender)} accepts (SETTINGS_MAX_FRAME_SIZE${mine.maxFrameSize === DEFAULT_MAX_FRAME_SIZE ? ', 16,384 by default' : ''}): a FRAME_SIZE_ERROR (RFC 9113 §4.2)${unseen}.`,
      });
    }
    if (frame.type === 'SETTINGS' && !(frame.flags & FLAGS.ACK)) {
      // These settings govern what the peer sends.
      for (const { id, value } of frame.settings) {
        if (id === SETTINGS_INITIAL_WINDOW_SIZE) theirs.initial = value;
        if (id === SETTINGS_MAX_FRAME_SIZE) theirs.maxFrameSize = value;
      }
    } else if (frame.type === 'WINDOW_UPDATE') {
      add(mine.senderGranted, frame.streamId, frame.windowSizeIncrement);
      add(theirs.receiverGranted, frame.streamId, frame.windowSizeIncrement);
    } else if (frame.type === 'DATA') {
      add(mine.sent, 0, length);
      add(mine.sent, frame.streamId, length);
      if (this.#ordered) this.#checkWindows(sender, frame.streamId, where);
    }
  }

  #checkWindows(sender: Sender, streamId: number, where: Omit<H2Problem, 'message'>): void {
    const flow = this.flow[sender];
    for (const id of [0, streamId]) {
      const left = flow.window(id);
      const key = `${sender}/${id}`;
      if (left >= 0 || this.#flagged.has(key)) continue;
      this.#flagged.add(key);
      this.problems.push({ ...where, message: this.#windowMessage(sender, id, left, `frame ${where.frame}`) });
    }
  }

  #windowMessage(sender: Sender, streamId: number, left: number, when: string): string {
    const peer = other(sender);
    const what = streamId === 0 ? 'the connection' : `stream ${streamId}`;
    const granted = this.#bothSides
      ? `${peer === 'client' ? 'The client' : 'The server'} gave ${(streamId === 0 ? INITIAL_WINDOW : this.flow[sender].initial).toLocaleString('en-US')} octets${streamId === 0 ? ' (the connection window, RFC 9113 §6.9.2)' : ' (its SETTINGS_INITIAL_WINDOW_SIZE)'} and ${(this.flow[sender].receiverGranted.get(streamId) ?? 0).toLocaleString('en-US')} more with WINDOW_UPDATE`
      : `A peer allows 65,535 octets before any WINDOW_UPDATE (RFC 9113 §6.9.2); the ${peer}'s WINDOW_UPDATE and SETTINGS frames are not in this capture, so this holds only if they gave no more`;
    return `The ${sender}'s DATA takes the flow-control window of ${what} to ${left.toLocaleString('en-US')} at ${when}: a sender must not send more than the window allows, and a receiver treats it as a FLOW_CONTROL_ERROR (RFC 9113 §6.9.1). ${granted}.`;
  }

  /**
   * After the last frame: without a known order across directions, only a window that is negative once every
   * frame is counted is certainly overrun (the sums do not depend on the order).
   */
  finish(): void {
    if (this.#ordered) return;
    for (const sender of ['client', 'server'] as const) {
      for (const { streamId, windowLeft } of this.flow[sender].rows()) {
        if (windowLeft < 0)
          this.problems.push({ offset: 0, frame: 0, sender, message: this.#windowMessage(sender, streamId, windowLeft, 'the end of the capture') });
      }
    }
  }
}

export { HpackDecoder };
