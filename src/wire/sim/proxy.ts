/**
 * A forward proxy on the simulated network, in two characters:
 *
 * - 'smart': an HTTP/1.1 proxy that follows RFC 9110 §7.6. Before forwarding either way it removes the
 *   hop-by-hop fields (Connection, Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade, the
 *   Proxy-Authenticate/-Authorization pair, the non-standard Proxy-Connection, and every field the
 *   Connection header names), adds Via (§7.6.3), and manages each hop's persistence itself. It never
 *   keeps a persistent connection with an HTTP/1.0 client (RFC 9112 §9.3). With `pipelining: false` it
 *   cannot cope with a pipelined request: it drops whatever arrives while a request is outstanding and
 *   closes the client connection after answering the first one, so the client must retry the rest.
 *   It stores and forwards whole messages (a simplification; real proxies stream).
 *
 * - 'dumb': a blind HTTP/1.0 relay that does not understand Connection. It reads one request, opens a
 *   connection to the origin, forwards the request bytes unchanged (Connection: keep-alive included, and
 *   any field a Connection header names, which RFC 9110 §7.6.1 says a proxy MUST remove),
 *   then copies bytes back until the origin closes, and only then closes the client side. Anything
 *   else the client sends on that connection is ignored. With Keep-Alive this is the classic hang: the
 *   origin keeps its connection open, the client believes the same, and its next request waits for the
 *   origin's keep-alive timeout.
 *
 * Both implement CONNECT (RFC 9110 §9.3.6): open a TCP connection to the authority, answer 200, then
 * relay bytes both ways until either side closes.
 *
 * Each hop is read by the HTTP/1 engine's connection, Http1Connection (sim/http1/observer.ts, driving), as the
 * simulated server and client read theirs: towards the client the proxy is a server ('http1-server'
 * transitions on the client's connection), towards the origin a client ('http1-client' on the upstream
 * connection). So what the engine rejects is what the proxy rejects, with the engine's code, offset and
 * status and the same state-table rows, and a request the engine holds back (a pipelined one waits until the
 * one before it is answered, RFC 9112 §9.3.2) is held back here too. The dumb relay reads only its one request
 * that way; it copies the origin's bytes without reading them, which is the point of it.
 */
import { isHopByHop, reasonPhrase } from '../data/index';
import type { WireError } from '../errors';
import type { Http1RequestEvent, Http1ResponseEvent } from '../http1/index';
import type { HeaderField, MessageCodec, WireRequest, WireResponse } from '../net/codec';
import { header, headerTokens, startLine } from '../net/codec';
import type { Link } from '../net/link';
import type { ByteStream } from '../net/stream';
import { concatBytes, utf8 } from '../net/stream';
import { isRefused, type TcpNetwork, type TcpSocket } from '../net/tcp';
import { Http1Observer } from './http1/observer';
import { http1RefusalStatus, traceHttp1ProtocolError } from './http1/protocol-error';

export type ProxyKind = 'smart' | 'dumb';

export interface ProxyConfig {
  readonly kind: ProxyKind;
  readonly pipelining: boolean;
  readonly network: TcpNetwork;
  /** Writes the messages the proxy sends (the engines read what it receives). */
  readonly codec: MessageCodec;
  /** The proxy-to-origin hop. */
  readonly upstreamLink: Link;
  readonly name: string;
}

/** A bound on the engine steps one arrival is turned into (each step consumes bytes or ends the loop). */
const MAX_STEPS_PER_READ = 100_000;

/** Removes hop-by-hop fields; returns what is left and the names removed (for the trace). */
export function stripHopByHop(headers: readonly HeaderField[]): { kept: HeaderField[]; removed: string[] } {
  const connection = headers.filter((h) => h.name.toLowerCase() === 'connection').map((h) => h.value);
  const kept: HeaderField[] = [];
  const removed: string[] = [];
  for (const h of headers) {
    if (isHopByHop(h.name, connection) || h.name.toLowerCase() === 'proxy-connection') removed.push(h.name);
    else kept.push(h);
  }
  return { kept, removed };
}

function relay(a: ByteStream, b: ByteStream): void {
  a.onData((bytes) => b.write(bytes));
  b.onData((bytes) => a.write(bytes));
  a.onClose(() => b.close('tunnel peer closed'));
  b.onClose(() => a.close('tunnel peer closed'));
}

const join = (chunks: readonly Uint8Array[]): Uint8Array => (chunks.length === 1 ? chunks[0]! : concatBytes(chunks));

/** The proxy-to-origin connection and the engine reading it as a client. */
interface Upstream {
  readonly socket: TcpSocket;
  readonly host: string;
  readonly engine: Http1Observer;
}

export class ForwardProxy {
  readonly #config: ProxyConfig;

  constructor(config: ProxyConfig) {
    this.#config = config;
  }

  /** Starts listening on `address`. */
  listen(address: string): () => void {
    return this.#config.network.listen(address, 'proxy', (socket) => this.#accept(socket));
  }

  #accept(client: TcpSocket): void {
    const { codec, network, upstreamLink, kind, pipelining } = this.#config;
    const ctx = network.ctx;
    /** The proxy as the server of the client's connection. */
    const engine = new Http1Observer('server', client.connectionId, ctx, { driving: true });
    let mode: 'reading' | 'busy' | 'relay' | 'dropping' = 'reading';
    /** A CONNECT waiting for its upstream: bytes that arrive meanwhile belong to the tunnel, kept by the engine. */
    let tunnelPending = false;
    let upstream: Upstream | undefined;
    /** The request being read: its head and body so far. */
    let head: Http1RequestEvent | undefined;
    let body: Uint8Array[] = [];
    /** The dumb relay forwards its one request as received, so it keeps the bytes until then. */
    const raw: Uint8Array[] = [];
    let fed = 0;
    const move = (to: typeof mode, input: string): void => {
      ctx.trace.emit({ type: 'transition', machine: `proxy-${kind}`, connectionId: client.connectionId, from: mode, input, to });
      mode = to;
    };

    /** Writes a response to the client once the engine has let it go out (its table allows it now). */
    const answer = (response: WireResponse, method: string): boolean => {
      const refused = engine.sent(response);
      if (refused) {
        client.abort(`proxy cannot answer: ${refused.message}`);
        return false;
      }
      client.write(codec.encodeResponse(response, method));
      return true;
    };

    const closeClient = (reason: string): void => {
      engine.closed();
      client.close(reason);
    };

    /**
     * The engine refused what a hop sent: the proxy refuses it as the server does, with the engine's status
     * (400 by default, 431, 414, 501; 502 for an origin's response), its words as the body, and closes: a proxy
     * that forwarded what it could not parse would be a request-smuggling gap (RFC 9112 §11.2).
     */
    const reject = (error: WireError, method = 'GET'): void => {
      const status = http1RefusalStatus(error);
      traceHttp1ProtocolError(ctx, client.connectionId, 'proxy', error, status);
      mode = 'relay'; // nothing more is read from this client
      const headers = [
        { name: 'Connection', value: 'close' },
        { name: 'Content-Type', value: 'text/plain;charset=UTF-8' },
      ];
      // After a refused request the engine has stopped and this goes out as the server's does; after a refused
      // origin response the client's hop is still sound, so the engine sees the 502 go out.
      engine.sent({ version: '1.1', status, reason: reasonPhrase(status), headers, body: new Uint8Array(0) });
      client.write(codec.encodeResponse({ version: '1.1', status, reason: reasonPhrase(status), headers, body: utf8(error.message) }, method));
      closeClient('bad request');
    };

    const tunnel = (request: WireRequest): void => {
      move('relay', 'CONNECT');
      tunnelPending = true;
      const target = network.connect(request.target, { from: 'proxy', link: upstreamLink });
      target.onOpen(() => {
        tunnelPending = false;
        ctx.trace.emit({ type: 'tunnel-established', connectionId: client.connectionId, upstreamConnectionId: target.connectionId, authority: request.target });
        // A 2xx to CONNECT switches both sides of the engine to the tunnel (SWITCHED_PROTOCOL); what the
        // client sent after its request is the tunnel's first bytes.
        if (!answer({ version: '1.1', status: 200, reason: 'Connection Established', headers: [], body: new Uint8Array(0) }, 'CONNECT')) return;
        const rest = engine.trailing();
        if (rest.length > 0) target.write(rest);
        relay(client, target);
      });
      target.onClose((info) => {
        if (!isRefused(info.reason)) return;
        tunnelPending = false;
        const headers = [
          { name: 'Content-Length', value: '0' },
          { name: 'Connection', value: 'close' },
        ];
        if (answer({ version: '1.1', status: 502, reason: 'Bad Gateway', headers, body: new Uint8Array(0) }, 'CONNECT')) closeClient('CONNECT failed');
      });
    };

    const parsed = (request: WireRequest): void => {
      ctx.trace.emit({
        type: 'message-parsed',
        connectionId: client.connectionId,
        by: 'proxy',
        kind: 'request',
        startLine: startLine(request),
        headers: request.headers,
        bodyLength: request.body.length,
      });
    };

    /** The connection to the origin: the open one when it goes to the same host and its engine may send again. */
    const openUpstream = (url: URL): Upstream => {
      const host = `${url.hostname}:${url.port || '80'}`;
      if (upstream && upstream.socket.state !== 'closed' && upstream.host === host && upstream.engine.canSend) return upstream;
      if (upstream && upstream.socket.state !== 'closed') {
        upstream.engine.closed();
        upstream.socket.close(upstream.host === host ? 'origin connection not persistent' : 'switching origin');
      }
      const socket = network.connect(host, { from: 'proxy', link: upstreamLink });
      const opened: Upstream = { socket, host, engine: new Http1Observer('client', socket.connectionId, ctx, { driving: true }) };
      socket.onClose((info) => {
        if (info.by !== socket.side) opened.engine.feed('eof');
      });
      upstream = opened;
      return opened;
    };

    // --- dumb: forward one request verbatim, then copy bytes back until the origin closes ---------
    const dumb = (request: WireRequest, bytes: Uint8Array): void => {
      move('relay', 'request');
      const url = new URL(request.target, `http://${header(request.headers, 'host') ?? 'localhost'}`);
      const up = openUpstream(url).socket;
      ctx.trace.emit({
        type: 'proxy-forwarded',
        connectionId: client.connectionId,
        upstreamConnectionId: up.connectionId,
        kind: 'request',
        removedHeaders: [],
      });
      up.write(bytes);
      up.onData((data) => client.write(data));
      up.onClose(() => client.close('origin closed; a 1.0 relay ends the client connection too'));
      client.onClose(() => up.close('client closed'));
    };

    // --- smart: one request at a time, hop-by-hop fields removed both ways --------------------------
    const forward = (request: WireRequest): void => {
      move('busy', 'request');
      const url = new URL(request.target, `http://${header(request.headers, 'host') ?? 'localhost'}`);
      const { kept, removed } = stripHopByHop(request.headers);
      const clientPersists = request.version === '1.1' && !headerTokens(request.headers, 'connection').includes('close');
      const via: HeaderField = { name: 'Via', value: `${request.version} ${this.#config.name}` };
      const outgoing: WireRequest = { method: request.method, target: url.pathname + url.search, version: '1.1', headers: [...kept, via], body: request.body };
      const up = openUpstream(url);
      ctx.trace.emit({
        type: 'proxy-forwarded',
        connectionId: client.connectionId,
        upstreamConnectionId: up.socket.connectionId,
        kind: 'request',
        removedHeaders: removed,
      });
      let response: Http1ResponseEvent | undefined;
      let chunks: Uint8Array[] = [];
      let done = false;
      const finish = (received: WireResponse): void => {
        done = true;
        offData();
        offClose();
        const back = stripHopByHop(received.headers);
        ctx.trace.emit({
          type: 'proxy-forwarded',
          connectionId: client.connectionId,
          upstreamConnectionId: up.socket.connectionId,
          kind: 'response',
          removedHeaders: back.removed,
        });
        const keep = clientPersists && (mode as string) !== 'dropping';
        const headers = [
          ...back.kept.filter((h) => h.name.toLowerCase() !== 'content-length'),
          { name: 'Via', value: `${received.version} ${this.#config.name}` },
        ];
        // The message is re-framed for this hop (Transfer-Encoding was hop-by-hop): HEAD keeps the origin's
        // Content-Length, 1xx/204/304 carry none (RFC 9110 §8.6), everything else gets the stored length.
        const bodyless = received.status < 200 || received.status === 204 || received.status === 304;
        const length = request.method === 'HEAD' ? header(received.headers, 'content-length') : bodyless ? undefined : String(received.body.length);
        if (length !== undefined) headers.push({ name: 'Content-Length', value: length });
        if (!keep) headers.push({ name: 'Connection', value: 'close' });
        // The origin's hop ends when its engine says so (Connection: close, a 1.0 answer without keep-alive).
        if (!up.engine.canSend) {
          up.engine.closed();
          up.socket.close('origin connection not persistent');
        }
        if (!answer({ ...received, version: request.version, headers }, request.method)) return;
        if (!keep) {
          closeClient(mode === 'dropping' ? 'proxy cannot pipeline' : 'client connection not persistent');
          return;
        }
        move('reading', 'response');
        read(); // the engine lets the next pipelined request out now that this one is answered
      };
      /** Reads the origin's answer with the engine; a 1xx goes on to a 1.1 client as it comes (RFC 9110 §15.2). */
      const readUp = (): void => {
        for (let i = 0; i < MAX_STEPS_PER_READ && !done; i++) {
          const step = up.engine.next();
          if (step.type === 'informational') {
            if (request.version === '1.1' && step.status !== 101) {
              answer({ ...step, headers: stripHopByHop(step.headers).kept, body: new Uint8Array(0) }, request.method);
            }
          } else if (step.type === 'response') {
            response = step;
            chunks = [];
          } else if (step.type === 'data') {
            chunks.push(step.data);
          } else if (step.type === 'end-of-message') {
            if (!response) continue;
            const { version, status, reason, headers } = response;
            finish({ version, status, reason, headers, body: chunks.length === 0 ? new Uint8Array(0) : join(chunks) });
          } else if (step.type === 'error') {
            // The origin's response is one the engine rejects: the proxy answers 502 (the engine's status for a
            // response, RFC 9110 §15.6.3) and closes both hops rather than pass on what it cannot frame.
            done = true;
            offData();
            offClose();
            up.socket.close('origin response rejected');
            reject(step.error, request.method);
          } else {
            return; // need-data, paused, connection-closed
          }
        }
      };
      const offData = up.socket.onData((bytes) => {
        up.engine.feed(bytes);
        readUp();
      });
      const offClose = up.socket.onClose(() => {
        if (done) return;
        readUp(); // a response delimited by the close ends now (the engine was told of the close first)
        if (!done) client.abort('origin closed without a response');
      });
      const refused = up.engine.sent(outgoing);
      if (refused) {
        done = true;
        offData();
        offClose();
        client.abort(`proxy cannot forward: ${refused.message}`);
        return;
      }
      up.socket.write(codec.encodeRequest(outgoing));
    };

    /** Reads every request the engine lets through now, and acts on the engine's verdict. */
    const read = (): void => {
      for (let i = 0; i < MAX_STEPS_PER_READ && mode === 'reading'; i++) {
        const step = engine.next();
        if (step.type === 'request') {
          head = step;
          body = [];
        } else if (step.type === 'data') {
          body.push(step.data);
        } else if (step.type === 'end-of-message') {
          if (!head) continue;
          const request: WireRequest = {
            method: head.method,
            target: head.target,
            version: head.version,
            headers: head.headers,
            body: body.length === 0 ? new Uint8Array(0) : join(body),
          };
          head = undefined;
          parsed(request);
          if (request.method === 'CONNECT') tunnel(request);
          else if (kind === 'dumb') dumb(request, join(raw).slice(0, fed - engine.buffered));
          else {
            forward(request);
            // Bytes already past this request are a pipelined one, which this proxy cannot take.
            if (!pipelining && (mode as string) === 'busy' && engine.buffered > 0) move('dropping', 'pipelined request');
          }
          return;
        } else if (step.type === 'error') {
          reject(step.error);
          return;
        } else {
          return; // need-data, paused (a request is being answered), connection-closed
        }
      }
    };

    client.onData((bytes) => {
      // A dumb relay after its one request, a refused request, an open tunnel (relay() copies): nothing to read.
      if ((mode === 'relay' && !tunnelPending) || mode === 'dropping') return;
      engine.feed(bytes);
      fed += bytes.length;
      if (kind === 'dumb') raw.push(bytes.slice());
      if (mode === 'busy') {
        if (!pipelining) move('dropping', 'pipelined request');
        return; // the engine keeps a pipelined request until this one is answered
      }
      read();
    });
    client.onClose((info) => {
      if (info.by !== client.side) engine.feed('eof');
      upstream?.socket.close('client closed');
    });
  }
}
