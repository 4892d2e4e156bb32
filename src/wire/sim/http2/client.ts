/**
 * The simulator's HTTP/2 client: `sim.fetch` over `Http2Connection` on the simulated TCP network.
 *
 * One connection per origin carries every request as a stream of its own (RFC 9113 §5): there is no
 * connection limit to queue behind, only SETTINGS_MAX_CONCURRENT_STREAMS (§5.1.2). Until the server's
 * SETTINGS arrive the client assumes 100 concurrent streams, as Chrome does, since requests leave with
 * the preface. Because every stream shares one TCP byte stream, one lost segment holds back every
 * response behind it: TCP head-of-line blocking, visible as 'hol-blocked' and late 'h2-frame' events.
 *
 * https: URLs use TLS with ALPN "h2" (RFC 9113 §3.2); the simulated TLS handshake carries no
 * extensions, so the negotiation is reported in the 'h2-session' event. http: URLs use cleartext
 * HTTP/2 with prior knowledge (§3.3): the preface is the first thing sent, no Upgrade dance.
 *
 * Through a proxy (the simulation's `proxy` option), https: URLs go the way browsers send them: an
 * HTTP/1.1 CONNECT to the proxy opens a tunnel to the origin (RFC 9110 §9.3.6), then TLS with ALPN "h2"
 * and HTTP/2 run end to end inside it, so the proxy sees only opaque bytes. http: URLs cannot use
 * HTTP/2 through a forward proxy (browsers send those to the proxy as HTTP/1.1 in absolute-form), so
 * such a fetch fails with a TypeError that says so; use httpVersion '1.1' for them.
 *
 * Departures, on purpose: server push is accepted into a per-connection push
 * cache that a later GET of the same URL claims (as browsers did before they dropped push); a stream
 * the server refuses (REFUSED_STREAM) or leaves unprocessed by GOAWAY (§6.8) is retried on a new
 * connection, since the server did not act on it (§8.7); any other failure fails the fetch.
 */
import { WireError } from '../../errors';
import { defaultPort } from '../http1/agent';
import { abortReason, type Exchange } from '../exchange';
import type { ClientProtocol, ClientProtocolFactory, ProtocolEnv } from '../protocol';
import type { Settings } from '../../http2/constants';
import { fail, Http2ClientSession } from './client-session';

// The windows a browser offers belong with the session that announces them; exported here as before.
export { BROWSER_CONNECTION_WINDOW, BROWSER_STREAM_WINDOW, flowControlWindows } from './client-session';

export interface Http2ClientOptions {
  /** Announce SETTINGS_ENABLE_PUSH = 0 so the server may not push (RFC 9113 §6.5.2). Default: push allowed. */
  readonly enablePush?: boolean;
  /** Further SETTINGS to announce. */
  readonly settings?: Partial<Settings>;
}

/** The default HTTP/2 client; `createSimulation({ httpVersion: '2' })` uses `http2Client()`. */
export function http2Client(options: Http2ClientOptions = {}): ClientProtocolFactory {
  return (env) => new Http2Client(env, options);
}

class Http2Client implements ClientProtocol {
  readonly #env: ProtocolEnv;
  readonly #options: Http2ClientOptions;
  readonly #sessions = new Map<string, Http2ClientSession>();

  constructor(env: ProtocolEnv, options: Http2ClientOptions) {
    this.#env = env;
    this.#options = options;
  }

  keyFor(url: URL): string {
    return `${url.protocol}//${url.hostname}:${defaultPort(url)}`;
  }

  submit(exchange: Exchange): void {
    if (this.#env.proxyAddress && exchange.url.protocol !== 'https:') {
      const message = `HTTP/2 through a proxy needs an https: URL (a CONNECT tunnel carrying TLS and h2); ${exchange.url.href} is plain http:, which goes to a forward proxy as HTTP/1.1. Use httpVersion '1.1' for it.`;
      fail(
        this.#env,
        exchange,
        'network-error',
        new TypeError('Failed to fetch', { cause: new WireError({ code: 'unsupported-option', side: 'local', message }) }),
        message,
      );
      return;
    }
    let session = this.#sessions.get(exchange.origin);
    if (!session?.accepting) {
      session = new Http2ClientSession(this.#env, this.#options, exchange, {
        retry: (ex) => this.submit(ex),
        ended: (s) => {
          if (this.#sessions.get(s.key) === s) this.#sessions.delete(s.key);
        },
      });
      this.#sessions.set(exchange.origin, session);
    }
    session.submit(exchange);
  }

  abort(exchange: Exchange): void {
    if (exchange.settled) return;
    for (const session of this.#sessions.values()) session.abort(exchange);
    if (!exchange.settled) fail(this.#env, exchange, 'aborted', abortReason(exchange.signal!), 'aborted by the caller');
  }
}
