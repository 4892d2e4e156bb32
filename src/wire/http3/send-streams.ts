/**
 * The sending parts of a QUIC connection's streams, by id, and which of them may have data to send, in the
 * order the connection's round-robin serves them (creation order). Apart from connection.ts because keeping
 * that order cheaply is a concern of its own: a long connection has thousands of streams, and each packet
 * should visit only those that might send, in their turn.
 */
import type { QuicStreamTransition } from './stream-states';
import { SendStream } from './streams';

export class SendStreams {
  readonly #send = new Map<number, SendStream>();
  /**
   * Sending parts that may have something to send: those written to or given a lost chunk since they
   * last ran dry. The connection's #sendApp visits these instead of every stream the connection ever had
   * (thousands, on a long connection), and `ready` drops those it finds empty. `#created` keeps their turn
   * in creation order.
   */
  readonly #maybeReady = new Set<SendStream>();
  readonly #created = new Map<SendStream, number>();
  #readyOutOfOrder = false;
  /** Creation number of the youngest stream in #maybeReady (or of one that was, which only costs a sort). */
  #readyNewest = -1;
  /** Told of every step of a sending part's state (stream-states.ts). */
  readonly #onTransition: (t: QuicStreamTransition) => void;

  constructor(onTransition: (t: QuicStreamTransition) => void) {
    this.#onTransition = onTransition;
  }

  /** The sending part of stream `id`, if it was ever opened. */
  get(id: number): SendStream | undefined {
    return this.#send.get(id);
  }

  /** The sending part of stream `id`, opened on first use (RFC 9000 §2.1: streams open implicitly). */
  stream(id: number): SendStream {
    let stream = this.#send.get(id);
    if (!stream) {
      stream = new SendStream(id, this.#onTransition);
      this.#send.set(id, stream);
      this.#created.set(stream, this.#created.size);
    }
    return stream;
  }

  /** `stream` is about to get data to send: the connection's #sendApp must visit it. */
  wake(stream: SendStream): SendStream {
    if (!this.#maybeReady.has(stream)) {
      // A set keeps insertion order: a stream woken after a younger one is out of place in it.
      const created = this.#created.get(stream)!;
      if (created < this.#readyNewest) this.#readyOutOfOrder = true;
      else this.#readyNewest = created;
      this.#maybeReady.add(stream);
    }
    return stream;
  }

  /** Streams with data to send, in the order they were created (the round-robin's order). */
  ready(): SendStream[] {
    const ready: SendStream[] = [];
    for (const stream of this.#maybeReady) {
      if (stream.hasData) ready.push(stream);
      else this.#maybeReady.delete(stream);
    }
    if (this.#readyOutOfOrder) {
      ready.sort((a, b) => this.#created.get(a)! - this.#created.get(b)!);
      this.#maybeReady.clear();
      for (const stream of ready) this.#maybeReady.add(stream);
      this.#readyOutOfOrder = false;
    }
    if (this.#maybeReady.size === 0) this.#readyNewest = -1;
    return ready;
  }
}
