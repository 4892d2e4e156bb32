/**
 * What one HTTP/2 endpoint on the simulated network puts in the trace: every frame it sends or receives
 * ('h2-frame', with exact bytes, byte ranges and, for field blocks, the HPACK steps), the connection
 * preface ('h2-preface'), and every row of the stream state table that changes a stream's state
 * ('h2-stream-transition').
 *
 * The tracer works from the bytes alone, beside the engine rather than inside it (the engine stays free of
 * tracing: ARCHITECTURE.md, 'Engines'): it parses each direction with `parseFrame`, keeps one HPACK decoder per
 * direction (the encoder on the other end fills the same dynamic table, so decoding every block in order
 * reproduces it), and shadows stream states with `transition()` from the same table the engine uses.
 * Rows that leave a state unchanged (DATA in open, WINDOW_UPDATE...) are not reported, to keep traces of
 * big bodies readable. Streams the engine closes without a frame (those above a GOAWAY's last stream id)
 * are not reported either.
 *
 * Both ends of a simulated connection are usually traced, and they see the same bytes: what the client
 * sends is, byte for byte, what the server receives (TCP delivers the stream exactly, only later). So each
 * direction of a connection is one `Flow`, shared by the tracers at its two ends: whichever end gets to
 * a byte first parses and decodes it, into frozen `FrameFacts` that both ends' events carry (everything
 * but side, direction, seq and time). Each end emits a frame's event once it has itself sent or received
 * all of the frame's bytes, so the events keep their place in the trace. A tracer whose peer is not
 * traced, or arrives too late to see the flow from its start, gets a flow of its own.
 *
 * The one exception to "from the bytes alone": the sending engine may hand over the HPACK steps its
 * encoder produced for a field block (`encoded`, from `SendResult.block`). Decoding the block's bytes
 * would give exactly those steps, so the flow takes them once it has checked that the block it parsed is
 * byte for byte the one handed over, and only keeps its decoder's table in step (`HpackDecoder.follow`).
 * Anything that does not match is decoded as before. The trace is the same either way.
 */
import { FLAGS } from '../../http2/constants';
import { type StreamEvent, type StreamState, transition } from '../../http2/stream-states';
import type { NetContext } from '../../net/tcp';
import type { HeaderList, Side } from '../../trace/events';
import { emitPrebuilt } from '../../trace/trace';
import type { EncodedBlock } from '../../hpack/index';
import { type Flow, type FlowEnd, type FrameFacts, flowFor, sameFields } from './flow';

export class Http2Tracer {
  readonly #ctx: NetContext;
  readonly #connectionId: string;
  readonly #side: Side;
  readonly #out: { flow: Flow; end: FlowEnd };
  readonly #in: { flow: Flow; end: FlowEnd };
  readonly #states = new Map<number, StreamState>();
  #lastBlockReceived = 0;
  /** Field lists of the blocks the last received chunk completed, by stream (see `receivedBlock`). */
  readonly #blocksIn = new Map<number, HeaderList>();

  constructor(ctx: NetContext, connectionId: string, side: Side) {
    this.#ctx = ctx;
    this.#connectionId = connectionId;
    this.#side = side;
    this.#out = flowFor(ctx, connectionId, side);
    this.#in = flowFor(ctx, connectionId, side === 'client' ? 'server' : 'client');
  }

  /** Octets of the last complete field block received (HAR headersSize: what HPACK put on the wire). */
  get lastBlockReceived(): number {
    return this.#lastBlockReceived;
  }

  /**
   * The engine encoded a field block that is about to go out (`SendResult.block`): the flow takes its
   * steps instead of decoding the bytes again when they arrive, checking that they are the same bytes.
   * `fields`, the list that was encoded, is used as the events' field list when it is frozen, its entries
   * are frozen and have exactly `name` and `value`, and it matches the steps.
   */
  encoded(block: EncodedBlock | undefined, fields?: HeaderList): void {
    if (block) this.#out.flow.hand({ block, fields: fields && Object.isFrozen(fields) ? fields : undefined });
  }

  /**
   * The frozen field list of the block the last `received` chunk completed on `streamId`, if it equals
   * `fields` (what the engine decoded from the same bytes); else undefined. The endpoint's own events
   * can then share the frame event's entries instead of freezing copies of the same fields.
   */
  receivedBlock(streamId: number, fields: readonly { readonly name: string; readonly value: string }[]): HeaderList | undefined {
    const headers = this.#blocksIn.get(streamId);
    return headers && sameFields(headers, fields) ? headers : undefined;
  }

  sent(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    const { flow, end } = this.#out;
    for (const f of flow.advance(end, bytes)) this.#emit(f, 'sent');
  }

  received(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.#blocksIn.size > 0) this.#blocksIn.clear();
    const { flow, end } = this.#in;
    for (const f of flow.advance(end, bytes)) {
      if (f.blockLength >= 0) this.#lastBlockReceived = f.blockLength;
      if (f.block) this.#blocksIn.set(f.streamId, f.block.headers);
      this.#emit(f, 'received');
    }
  }

  /**
   * The events are built whole and handed to `emitPrebuilt`: everything they refer to (flag lists,
   * field records, layouts, decoded blocks) was frozen when the facts were made.
   */
  #emit(f: FrameFacts, direction: 'sent' | 'received'): void {
    const { trace } = this.#ctx;
    const connectionId = this.#connectionId;
    const side = this.#side;
    if (f.frameType === null) {
      emitPrebuilt(trace, { type: 'h2-preface', connectionId, side, direction, data: f.data, seq: 0, at: 0 });
      return;
    }
    const { frameType, streamId, flags, length, fields, data, ranges, block } = f;
    if (block) {
      emitPrebuilt(trace, {
        type: 'h2-frame',
        connectionId,
        side,
        direction,
        frameType,
        streamId,
        flags,
        length,
        fields,
        data,
        ranges,
        headers: block.headers,
        hpack: block.hpack,
        seq: 0,
        at: 0,
      });
    } else {
      emitPrebuilt(trace, { type: 'h2-frame', connectionId, side, direction, frameType, streamId, flags, length, fields, data, ranges, seq: 0, at: 0 });
    }
    // The stream events the frame stands for, in order (RFC 9113 §5.1).
    const dir = direction === 'sent' ? 'send' : 'recv';
    const ends = (f.flagBits & FLAGS.END_STREAM) !== 0;
    switch (frameType) {
      case 'HEADERS':
        this.#step(streamId, 'HEADERS', dir);
        if (ends) this.#step(streamId, 'END_STREAM', dir);
        return;
      case 'DATA':
        if (ends) {
          this.#step(streamId, 'DATA', dir);
          this.#step(streamId, 'END_STREAM', dir);
        }
        return;
      case 'PUSH_PROMISE':
        this.#step(f.promisedStreamId, 'PUSH_PROMISE', dir);
        return;
      case 'RST_STREAM':
        this.#step(streamId, 'RST_STREAM', dir);
        return;
      default:
        return;
    }
  }

  /** Applies one row of the stream table and reports it if it changed the stream's state. */
  #step(id: number, input: StreamEvent, direction: 'send' | 'recv'): void {
    const from = this.#states.get(id) ?? 'idle';
    const r = transition(from, input, direction);
    if (!r.ok || r.next === from) return;
    if (r.next === 'closed') this.#states.delete(id);
    else this.#states.set(id, r.next);
    emitPrebuilt(this.#ctx.trace, {
      type: 'h2-stream-transition',
      connectionId: this.#connectionId,
      side: this.#side,
      streamId: id,
      from,
      input,
      direction,
      to: r.next,
      seq: 0,
      at: 0,
    });
  }
}
