/**
 * The shape every protocol engine of roundtrip/wire offers (ARCHITECTURE.md, 'Engines'), modelled on the
 * three verbs of Python's h11 and h2: bytes go in, events and bytes come out, and time is passed in.
 *
 * - **Bytes in**: `receive(data, now)` takes what arrived from the peer (a chunk of a byte stream for HTTP/1
 *   and HTTP/2, a QUIC datagram for HTTP/3) and returns the events it caused, oldest first.
 * - **Bytes out**: `dataToSend()` returns, and forgets, what the engine produced on its own since the last
 *   call: answers to what it received (HTTP/2's SETTINGS and PING acknowledgements, QUIC's ACKs) and what
 *   time made it send (a QUIC retransmission). The engines' action methods (`send`, `request`,
 *   `sendData`...) keep their own ways of handing out bytes; see each engine.
 * - **Time**: the engine has no clock. `nextTimeout(now)` says when it next needs to be told the time (or
 *   `undefined`), and `timeout(now)` is that call; it returns the events it caused. Arm one timer.
 *
 * Every name beside these verbs is the engine's own: `Http1Connection.send(event)`,
 * `Http2Connection.request(...)`, `Http3Connection.request(...)`.
 */

/** Which end of a connection an engine is: the same two words for HTTP/1, HTTP/2, QUIC and HTTP/3. */
export type WireRole = 'client' | 'server';

/**
 * The common verbs. `TEvent` is the engine's event union; `TData` is its unit of bytes on the wire
 * (`Uint8Array` for a byte stream, `QuicDatagram` for QUIC).
 */
export interface WireEngine<TEvent, TData = Uint8Array> {
  readonly role: WireRole;
  /** Bytes in: `data` arrived from the peer at `now` (the caller's clock). Returns the events, oldest first. */
  receive(data: TData, now: number): readonly TEvent[];
  /** Bytes out: what the engine produced on its own since the last call, oldest first; empty when nothing. */
  dataToSend(): readonly TData[];
  /** Time: when `timeout` is next due on the caller's clock, or undefined when nothing is timed. */
  nextTimeout(now: number): number | undefined;
  /** Time: the caller's clock reached `now`. Returns the events that caused, oldest first. */
  timeout(now: number): readonly TEvent[];
}
