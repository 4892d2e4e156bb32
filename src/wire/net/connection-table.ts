/**
 * Client-side HTTP/1 connection management as a state table (ARCHITECTURE.md, 'State machines are data').
 *
 * It is the spec's "States and transitions" table in the client's terms, checked against RFC 9112 §9:
 * - connecting: TCP (and TLS, and a CONNECT tunnel) not ready yet;
 * - idle: open and reusable ("Kept alive" for 1.0 Keep-Alive, "Persistent" for 1.1);
 * - busy: one request outstanding;
 * - pipelined: more than one request outstanding; responses come back in request order (§9.3.2);
 * - closing: no more requests go on it (Connection: close was sent or received, a 1.0 exchange without
 *   Keep-Alive, the Keep-Alive max or timeout was reached); waiting for the close;
 * - closed.
 * A (state, input) pair that is not a row is a bug in the caller and throws; the docs draw the diagram
 * from `CLIENT_CONNECTION_TABLE` itself.
 */

export type ClientConnectionState = 'connecting' | 'idle' | 'busy' | 'pipelined' | 'closing' | 'closed';

export type ClientConnectionInput =
  /** The stream is ready for the first request. */
  | 'ready'
  /** A request goes out and the connection stays reusable afterwards (as far as we know). */
  | 'send'
  /** A request goes out that ends the connection after its response (Connection: close, plain 1.0). */
  | 'send-last'
  /** A request goes out while others still wait for their responses. */
  | 'pipeline'
  /** A response completed; nothing else outstanding and the connection persists. */
  | 'response-keep'
  /** A response completed; exactly one request still outstanding. */
  | 'response-one-left'
  /** A response completed; several requests still outstanding. */
  | 'response-more-left'
  /** A response completed and the connection will not be reused. */
  | 'response-close'
  /** Our idle timer (or the server's Keep-Alive timeout) expired. */
  | 'idle-timeout'
  /** The peer closed or reset the connection. */
  | 'peer-closed'
  /** We reset it (abort, protocol error). */
  | 'abort';

export interface TransitionRow {
  readonly from: ClientConnectionState;
  readonly input: ClientConnectionInput;
  readonly to: ClientConnectionState;
  readonly note: string;
}

const row = (from: ClientConnectionState, input: ClientConnectionInput, to: ClientConnectionState, note: string): TransitionRow =>
  Object.freeze({ from, input, to, note });

export const CLIENT_CONNECTION_TABLE: readonly TransitionRow[] = Object.freeze([
  row('connecting', 'ready', 'idle', 'handshakes done'),
  row('connecting', 'peer-closed', 'closed', 'refused or reset before it opened'),
  row('connecting', 'abort', 'closed', 'given up'),
  row('idle', 'send', 'busy', '1.1 persistent by default; 1.0 only with Connection: keep-alive'),
  row('idle', 'send-last', 'closing', 'RFC 9112 §9.6: after Connection: close the client sends no more requests'),
  row('idle', 'idle-timeout', 'closing', "Keep-Alive timeout (1.0) or the client's idle limit"),
  row('idle', 'peer-closed', 'closed', 'the server closed an idle connection (RFC 9112 §9.5)'),
  row('idle', 'abort', 'closed', 'reset'),
  row(
    'busy',
    'pipeline',
    'pipelined',
    'only once a response showed the connection persists, our choice: RFC 9112 §9.3.2 forbids pipelining at once only on a connection that replaces a failed one',
  ),
  row('busy', 'response-keep', 'idle', 'no close signal: reusable'),
  row('busy', 'response-close', 'closing', 'Connection: close, 1.0 without Keep-Alive, or Keep-Alive max reached'),
  row('busy', 'peer-closed', 'closed', 'closed before the response completed'),
  row('busy', 'abort', 'closed', 'reset (e.g. the request was aborted)'),
  row('pipelined', 'pipeline', 'pipelined', 'one more request in the pipeline'),
  row('pipelined', 'response-more-left', 'pipelined', 'responses arrive in request order'),
  row('pipelined', 'response-one-left', 'busy', 'responses arrive in request order'),
  row(
    'pipelined',
    'response-close',
    'closing',
    'requests behind this response are unanswered: the client should retry them on a new connection (RFC 9112 §9.3.2), automatically only if they are idempotent (§9.3.1)',
  ),
  row('pipelined', 'peer-closed', 'closed', 'unanswered requests should be retried (RFC 9112 §9.3.2); an automatic retry only for idempotent ones (§9.3.1)'),
  row('pipelined', 'abort', 'closed', 'reset'),
  row('closing', 'response-close', 'closing', 'the last response arrived'),
  row('closing', 'peer-closed', 'closed', 'close completed'),
  row('closing', 'abort', 'closed', 'reset'),
]);

export function nextState(from: ClientConnectionState, input: ClientConnectionInput): TransitionRow {
  const found = CLIENT_CONNECTION_TABLE.find((r) => r.from === from && r.input === input);
  if (!found) {
    throw new Error(`client-connection: no transition for input "${input}" in state "${from}"; this is a bug in the caller.`);
  }
  return found;
}
