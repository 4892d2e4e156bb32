/**
 * Reassembling a field block from HEADERS or PUSH_PROMISE plus CONTINUATION frames (RFC 9113 §4.3,
 * §6.10). While a block is open, the only acceptable frame is a CONTINUATION on the same stream;
 * the connection checks that through `expecting`. The assembled size is bounded (§10.5.1).
 */
import { FLAGS } from './constants';
import { connectionError, type Http2Error } from './errors';
import { concat } from './frame-builders';
import type { FrameOfType, PriorityFields } from './frames';

export interface FieldBlock {
  readonly streamId: number;
  /** Set for PUSH_PROMISE: the stream being reserved. */
  readonly promisedStreamId: number | null;
  readonly endStream: boolean;
  readonly priority: PriorityFields | undefined;
  readonly bytes: Uint8Array;
}

/** Upper bound on a field block being assembled from CONTINUATIONs (RFC 9113 §10.5.1). */
export const MAX_FIELD_BLOCK = 256 * 1024;

export class FieldBlockAssembler {
  private pending: { head: Omit<FieldBlock, 'bytes'>; fragments: Uint8Array[]; size: number; continuations: number } | null = null;

  /** `maxContinuations`: CONTINUATION frames allowed after one HEADERS or PUSH_PROMISE (nghttp2: 8). */
  constructor(private readonly maxContinuations = Infinity) {}

  /** The stream whose CONTINUATION must come next, or null. */
  get expecting(): number | null {
    return this.pending?.head.streamId ?? null;
  }

  /** What an unfinished block holds while it waits for END_HEADERS: frames (HEADERS included) and octets. */
  get held(): { readonly streamId: number; readonly frames: number; readonly bytes: number } | null {
    const p = this.pending;
    return p && { streamId: p.head.streamId, frames: p.continuations + 1, bytes: p.size };
  }

  /** Starts a block; returns it when END_HEADERS is already set, else null. */
  start(frame: FrameOfType<'HEADERS' | 'PUSH_PROMISE'>): FieldBlock | null {
    const head =
      frame.type === 'HEADERS'
        ? { streamId: frame.streamId, promisedStreamId: null, endStream: (frame.flags & FLAGS.END_STREAM) !== 0, priority: frame.priority }
        : { streamId: frame.streamId, promisedStreamId: frame.promisedStreamId, endStream: false, priority: undefined };
    if (frame.flags & FLAGS.END_HEADERS) return { ...head, bytes: frame.headerBlockFragment };
    this.pending = { head, fragments: [frame.headerBlockFragment], size: frame.headerBlockFragment.length, continuations: 0 };
    return null;
  }

  /** Adds a CONTINUATION; returns the block when complete, null when more is due, or an error. */
  continue(frame: FrameOfType<'CONTINUATION'>): FieldBlock | null | Http2Error {
    const p = this.pending;
    if (!p) return connectionError('PROTOCOL_ERROR', 'CONTINUATION without a preceding HEADERS or PUSH_PROMISE (RFC 9113 §6.10).');
    if (++p.continuations > this.maxContinuations) {
      return connectionError(
        'ENHANCE_YOUR_CALM',
        `More than ${this.maxContinuations} CONTINUATION frames in one field block (RFC 9113 §10.5; CVE-2024-27316).`,
      );
    }
    p.fragments.push(frame.headerBlockFragment);
    p.size += frame.headerBlockFragment.length;
    if (p.size > MAX_FIELD_BLOCK) {
      return connectionError('ENHANCE_YOUR_CALM', `Field block over ${MAX_FIELD_BLOCK} octets (RFC 9113 §10.5.1).`);
    }
    if (!(frame.flags & FLAGS.END_HEADERS)) return null;
    this.pending = null;
    return { ...p.head, bytes: concat(p.fragments) };
  }

  reset(): void {
    this.pending = null;
  }
}
