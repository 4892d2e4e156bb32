/**
 * Building the frames an endpoint sends (RFC 9113 §6): field blocks cut into HEADERS/PUSH_PROMISE +
 * CONTINUATION at the peer's SETTINGS_MAX_FRAME_SIZE (§4.3, §6.10), DATA cut the same way (§6.1),
 * GOAWAY (§6.8); and the result shapes of the connection's verbs, which pair frames with bytes.
 */
import { ERROR_CODES, type ErrorCodeName, FLAGS } from './constants';
import type { Http2Event } from './events';
import { encodeFrames } from './frame-codec';
import type { Frame, PriorityFields } from './frames';
import type { EncodedBlock } from '../hpack/index';

export interface SendResult {
  readonly frames: readonly Frame[];
  readonly bytes: Uint8Array;
  /**
   * With `annotateFieldBlocks`, the field block these frames carry and its HPACK steps as the encoder
   * produced them: a tracer can show them without decoding the block a second time.
   */
  readonly block?: EncodedBlock;
}

export interface ReceiveResult extends SendResult {
  readonly events: readonly Http2Event[];
  /** The frames parsed from the input, in order (for traces and "explain this frame"). */
  readonly received: readonly Frame[];
}

/** Effects collected during one call: what happened and what to send (ARCHITECTURE.md, 'Engines'). */
export class Effects {
  readonly events: Http2Event[] = [];
  readonly frames: Frame[] = [];
  readonly received: Frame[] = [];

  toResult(): ReceiveResult {
    return { events: this.events, frames: this.frames, bytes: encodeFrames(this.frames), received: this.received };
  }
}

export const sendResult = (frames: Frame[]): SendResult => ({ frames, bytes: encodeFrames(frames) });

/** A field block as HEADERS (or PUSH_PROMISE) followed by as many CONTINUATIONs as needed. */
export function fieldBlockFrames(
  block: Uint8Array,
  maxFrameSize: number,
  streamId: number,
  head: { type: 'HEADERS'; endStream: boolean; priority?: PriorityFields } | { type: 'PUSH_PROMISE'; promisedStreamId: number },
): Frame[] {
  const frames: Frame[] = [];
  for (let at = 0; at < block.length || frames.length === 0; at += maxFrameSize) {
    // A block that fits in one frame is used as it is: the encoder hands out a fresh array per block.
    const headerBlockFragment = at === 0 && block.length <= maxFrameSize ? block : block.slice(at, at + maxFrameSize);
    const endHeaders = at + maxFrameSize >= block.length ? FLAGS.END_HEADERS : 0;
    if (at > 0) {
      frames.push({ type: 'CONTINUATION', streamId, flags: endHeaders, headerBlockFragment });
    } else if (head.type === 'PUSH_PROMISE') {
      frames.push({ type: 'PUSH_PROMISE', streamId, flags: endHeaders, promisedStreamId: head.promisedStreamId, headerBlockFragment });
    } else {
      const flags = endHeaders | (head.endStream ? FLAGS.END_STREAM : 0);
      frames.push({ type: 'HEADERS', streamId, flags, headerBlockFragment, ...(head.priority ? { priority: head.priority } : {}) });
    }
  }
  return frames;
}

export function dataFrames(streamId: number, data: Uint8Array, maxFrameSize: number, endStream: boolean): Frame[] {
  const frames: Frame[] = [];
  for (let at = 0; at < data.length || frames.length === 0; at += maxFrameSize) {
    const last = at + maxFrameSize >= data.length;
    // Views, not copies: the frames are encoded into the result's bytes at once, and a view costs no
    // second copy of every body that goes out.
    frames.push({ type: 'DATA', streamId, flags: last && endStream ? FLAGS.END_STREAM : 0, data: data.subarray(at, at + maxFrameSize) });
  }
  return frames;
}

export const goawayFrame = (lastStreamId: number, code: ErrorCodeName, debug: string): Frame => ({
  type: 'GOAWAY',
  streamId: 0,
  flags: 0,
  lastStreamId,
  errorCode: ERROR_CODES[code],
  debugData: new TextEncoder().encode(debug),
});

export { concatBytes as concat } from '../bytes';
