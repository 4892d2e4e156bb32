/**
 * From one parsed request to what the mock server wants done, independent of the protocol that carried it:
 * the same `MockServer` the simulator uses (its routes, resource store, method semantics and faults)
 * decides, and the protocol session (http1-server.ts, h2c-server.ts) turns the decision into frames or bytes.
 *
 * Faults are taken in request-arrival order, as on the simulated network. Latency and slow bodies are
 * virtual milliseconds there; here they become real milliseconds on the injected timers.
 */
import { reasonPhrase } from '../data/index';
import type { WireRequest, WireHeaderField } from '../net/index';
import type { MockServer } from '../server/index';
import { type Reply as ServerReply, decide as serverDecide, faultReply } from '../server/semantics';
import { installLazyRequestSupport } from '../server/lazy-request';

export interface Reply {
  readonly status: number;
  readonly reason: string;
  /** Header fields from the handler or the built-in semantics; framing and persistence are the protocol's job. */
  readonly headers: readonly WireHeaderField[];
  /** For HEAD this is still the GET body: its length is the Content-Length to announce. */
  readonly body: Uint8Array;
  /** What answered: a route pattern, 'builtin:...' or 'fault'. */
  readonly route: string;
}

export type Outcome =
  | {
      readonly kind: 'reply';
      readonly reply: Reply;
      /** Wait this long before the response starts (a route's latency plus injected latency). */
      readonly delayMs: number;
      /** Trickle the body out (a route's bytesPerTick, or the slow-body fault). */
      readonly slow?: { readonly bytesPerTick: number; readonly tickMs: number };
      /** Paths the route asks to push with this response (HTTP/2 only; HTTP/1 has no push). */
      readonly push?: readonly string[];
    }
  /** Answer nothing: close (FIN) or reset (RST) the connection instead. */
  | { readonly kind: 'drop'; readonly how: 'reset' | 'close' };

/**
 * What to do with one request. An outcome decided at once is returned as it is, not wrapped in a promise:
 * a session awaits only an answer that is really pending (a handler that awaits something).
 */
export type Dispatch = (request: WireRequest) => Outcome | Promise<Outcome>;

/** The dispatcher for a MockServer; `origin` is what handlers see in request.url when Host is missing. */
export const mockDispatch = (server: MockServer, origin: string): Dispatch => {
  // Handlers here get lazy Requests; `new Request(request)` and `fetch(request)` must take them (lazy-request.ts).
  installLazyRequestSupport();
  const config = { routes: server.routes, store: server.store, origin, bufferResponses: true, lazyRequests: true };
  // Not an async function: a reply decided at once becomes the outcome in the same turn, instead of an
  // async function's promise and the turns of awaiting another.
  return (request) => {
    const fault = server.faults.take();
    if (fault?.kind === 'drop') return { kind: 'drop', how: fault.how };
    if (fault?.kind === 'status') return outcome(server, faultReply(fault), {});
    let decided: ServerReply | Promise<ServerReply>;
    try {
      decided = serverDecide(request, config);
    } catch (error) {
      return outcome(server, failed(request, error), {});
    }
    if (decided instanceof Promise) {
      return decided.then(
        (r) => outcome(server, r, r.options),
        (error: unknown) => outcome(server, failed(request, error), {}),
      );
    }
    return outcome(server, decided, decided.options);
  };
};

/** Handler errors are already 500s; this is the mock server itself failing. A real server answers 500 and carries on, rather than dropping the connection with no answer. */
function failed(request: WireRequest, error: unknown): Reply {
  return {
    status: 500,
    reason: reasonPhrase(500),
    headers: [{ name: 'Content-Type', value: 'text/plain;charset=UTF-8' }],
    body: new TextEncoder().encode(`The mock server failed on ${request.method} ${request.target}: ${String(error)}\n`),
    route: 'builtin:500',
  };
}

/** The outcome for a reply: the route's latency, slow body and push list, and the faults injected now. */
function outcome(server: MockServer, reply: Reply, options: { latency?: number; bytesPerTick?: number; tickMs?: number; push?: unknown }): Outcome {
  // A route's `push` list, read structurally: src/wire/server may declare the option after this file.
  const push = Array.isArray(options.push) ? options.push.filter((p): p is string => typeof p === 'string') : [];
  const slow = options.bytesPerTick ? { bytesPerTick: options.bytesPerTick, tickMs: options.tickMs ?? 10 } : server.faults.slow;
  const delayMs = (options.latency ?? 0) + server.faults.extraLatency;
  // Nearly every answer: no slow body, nothing to push (no spreads of empty objects on that path).
  if (!slow && push.length === 0) return { kind: 'reply', reply, delayMs };
  return {
    kind: 'reply',
    reply,
    delayMs,
    ...(slow ? { slow: { bytesPerTick: slow.bytesPerTick, tickMs: slow.tickMs ?? 10 } } : {}),
    ...(push.length > 0 ? { push } : {}),
  };
}
