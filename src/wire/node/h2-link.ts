/**
 * One HTTP/2 connection over a Transport, shared by the h2c server and client adapters: the sans-I/O
 * `Http2Connection` decides everything, this file only moves its bytes and waits on its windows.
 *
 * - Every engine call returns `{ frames, bytes }`; `send()` writes the bytes at once, so frames reach the
 *   socket in the order the engine produced them (SocketTransport queues them in order and sends all that
 *   one turn of the event loop produced in a single write).
 * - `receive()` feeds bytes in and writes what the engine answers (SETTINGS and PING ACKs, the
 *   WINDOW_UPDATEs that refill our receive windows, RST_STREAM, GOAWAY) before anyone sees the events.
 * - `sendBody()` is the one place that respects the peer's flow control (RFC 9113 §5.2, §6.9): it sends
 *   what `sendWindow()` allows, parks the rest, and sends more when a `window-update` arrives or the
 *   peer's SETTINGS_INITIAL_WINDOW_SIZE grows every stream window (§6.9.2).
 *
 * Frame counts by type are kept for tests and logs ("did a WINDOW_UPDATE go out?"): counts, not a full
 * log, so a large transfer does not hold every frame in memory.
 */
import { WireError } from '../errors';
import type { HeaderField } from '../hpack/index';
import { type Frame, Http2Connection, type Http2ConnectionOptions, type Http2Event, type Http2SendResult } from '../http2/index';
import type { Transport } from './transport';

interface Outgoing {
  readonly data: Uint8Array;
  offset: number;
  readonly endStream: boolean;
  readonly trailers: readonly HeaderField[] | undefined;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export type FrameCounts = Readonly<Record<string, number>>;

const count = (into: Record<string, number>, frames: readonly Frame[]): void => {
  for (const f of frames) into[f.type] = (into[f.type] ?? 0) + 1;
};

/** States in which we may still send on a stream (RFC 9113 §5.1). */
export const SENDING_STATES: ReadonlySet<string> = new Set(['open', 'half_closed_remote']);

export class Http2Link {
  readonly conn: Http2Connection;
  readonly #transport: Transport;
  /** Bodies waiting for window, in the order they were queued (Map keeps insertion order). */
  readonly #pending = new Map<number, Outgoing>();
  readonly #sent: Record<string, number> = {};
  readonly #received: Record<string, number> = {};

  constructor(transport: Transport, options: Http2ConnectionOptions) {
    this.#transport = transport;
    this.conn = new Http2Connection(options);
  }

  /** Frames sent and received so far, by type. */
  get frameCounts(): { readonly sent: FrameCounts; readonly received: FrameCounts } {
    return { sent: { ...this.#sent }, received: { ...this.#received } };
  }

  get transport(): Transport {
    return this.#transport;
  }

  /** Puts an engine result on the wire. */
  send(result: Http2SendResult): void {
    count(this.#sent, result.frames);
    if (result.bytes.length === 0) return;
    void this.#transport.write(result.bytes).then(() => {
      // Everything written so far reached the operating system: the peer is reading, and the
      // acknowledgements the engine counted are no longer queued (RFC 9113 §10.5).
      if (!this.#transport.backlog) this.conn.outputFlushed();
    });
  }

  /**
   * Feeds received bytes to the engine, writes its answer, and returns the events. Window updates wake
   * parked bodies; a closed or reset stream drops its parked body.
   */
  receive(bytes: Uint8Array): readonly Http2Event[] {
    const result = this.conn.receiveData(bytes);
    count(this.#received, result.received);
    this.send(result);
    for (const e of result.events) {
      if (e.type === 'stream-closed' || e.type === 'stream-reset' || e.type === 'stream-error') {
        this.#drop(e.streamId, `Stream ${e.streamId} was closed or reset before its body was sent.`);
      }
    }
    if (result.events.some((e) => e.type === 'window-update' || e.type === 'settings-received')) this.#flush();
    if (this.conn.error) this.abandon(this.conn.error.message);
    return result.events;
  }

  /**
   * Sends a body on a stream within the peer's flow-control windows, then `trailers` if given (which end
   * the stream). Resolves once the last frame went out; rejects if the stream or connection goes first.
   */
  sendBody(streamId: number, data: Uint8Array, opts: { endStream?: boolean; trailers?: readonly HeaderField[] } = {}): Promise<void> {
    if (this.#pending.has(streamId)) throw new Error(`Stream ${streamId} already has a body being sent; await it first.`);
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(streamId, { data, offset: 0, endStream: opts.endStream ?? false, trailers: opts.trailers, resolve, reject });
      this.#flush();
    });
  }

  /** Fails every parked body: the connection is gone. */
  abandon(reason: string): void {
    for (const id of [...this.#pending.keys()]) this.#drop(id, reason);
  }

  #drop(streamId: number, reason: string): void {
    const out = this.#pending.get(streamId);
    if (!out) return;
    this.#pending.delete(streamId);
    out.reject(new WireError({ code: 'stream-closed', side: 'remote', message: reason }));
  }

  #flush(): void {
    for (const [id, out] of this.#pending) {
      try {
        if (!SENDING_STATES.has(this.conn.streamState(id))) {
          this.#drop(id, `Stream ${id} can no longer carry DATA (state ${this.conn.streamState(id)}).`);
          continue;
        }
        const left = out.data.length - out.offset;
        const n = Math.min(left, this.conn.sendWindow(id));
        const last = n === left;
        // Nothing fits yet: wait for the peer's WINDOW_UPDATE (a zero-length DATA is only sent to end a stream).
        if (n === 0 && !(last && out.endStream && !out.trailers)) {
          if (last) this.#finish(id, out);
          continue;
        }
        const chunk = out.data.subarray(out.offset, out.offset + n);
        this.send(this.conn.sendData(id, chunk, { endStream: last && out.endStream && !out.trailers }));
        out.offset += n;
        if (last) this.#finish(id, out);
      } catch (error) {
        this.#pending.delete(id);
        out.reject(error as Error);
      }
    }
  }

  #finish(id: number, out: Outgoing): void {
    this.#pending.delete(id);
    // RFC 9113 §8.1: trailers are a HEADERS frame that ends the stream.
    if (out.trailers) this.send(this.conn.sendHeaders(id, out.trailers, { endStream: true }));
    out.resolve();
  }
}

/** The value of a (pseudo-)header field, lower-case name. */
export const field = (headers: readonly HeaderField[], name: string): string | undefined => headers.find((h) => h.name === name)?.value;

export { joinBytes as concatBytes } from '../bytes';
