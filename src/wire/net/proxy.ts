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
 */
import { isHopByHop, reasonPhrase } from '../data/index';
import type { WireError } from '../errors';
import type { MessageCodec, HeaderField, WireRequest, WireResponse } from './codec';
import { header, headerTokens, startLine } from './codec';
import type { Link } from './link';
import type { ByteStream } from './stream';
import { concatBytes } from './stream';
import { isRefused, type TcpNetwork, type TcpSocket } from './tcp';

export type ProxyKind = 'smart' | 'dumb';

export interface ProxyConfig {
  readonly kind: ProxyKind;
  readonly pipelining: boolean;
  readonly network: TcpNetwork;
  readonly codec: MessageCodec;
  /** The proxy-to-origin hop. */
  readonly upstreamLink: Link;
  readonly name: string;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  return a.length === 0 ? b : concatBytes([a, b]);
}

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
    let buffer: Uint8Array = new Uint8Array(0);
    let mode: 'reading' | 'busy' | 'relay' | 'dropping' = 'reading';
    const queue: WireRequest[] = [];
    let upstream: TcpSocket | undefined;
    let upstreamHost = '';
    const { codec, network, upstreamLink, kind } = this.#config;
    const ctx = network.ctx;
    const move = (to: typeof mode, input: string): void => {
      ctx.trace.emit({ type: 'transition', machine: `proxy-${kind}`, connectionId: client.connectionId, from: mode, input, to });
      mode = to;
    };

    const tunnel = (request: WireRequest, rest: Uint8Array): void => {
      move('relay', 'CONNECT');
      const target = network.connect(request.target, { from: 'proxy', link: upstreamLink });
      target.onOpen(() => {
        ctx.trace.emit({ type: 'tunnel-established', connectionId: client.connectionId, upstreamConnectionId: target.connectionId, authority: request.target });
        client.write(codec.encodeResponse({ version: '1.1', status: 200, reason: 'Connection Established', headers: [], body: new Uint8Array(0) }));
        if (rest.length > 0) target.write(rest);
        relay(client, target);
      });
      target.onClose((info) => {
        if (isRefused(info.reason)) {
          client.write(
            codec.encodeResponse({
              version: '1.1',
              status: 502,
              reason: 'Bad Gateway',
              headers: [
                { name: 'Content-Length', value: '0' },
                { name: 'Connection', value: 'close' },
              ],
              body: new Uint8Array(0),
            }),
          );
          client.close('CONNECT failed');
        }
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

    const openUpstream = (url: URL): TcpSocket => {
      const host = `${url.hostname}:${url.port || '80'}`;
      if (!upstream || upstream.state === 'closed' || upstreamHost !== host) {
        upstream?.close('switching origin');
        upstream = network.connect(host, { from: 'proxy', link: upstreamLink });
        upstreamHost = host;
      }
      return upstream;
    };

    // --- dumb: forward one request verbatim, then copy bytes back until the origin closes ---------
    const dumb = (request: WireRequest, raw: Uint8Array): void => {
      move('relay', 'request');
      const url = new URL(request.target, `http://${header(request.headers, 'host') ?? 'localhost'}`);
      const up = openUpstream(url);
      ctx.trace.emit({
        type: 'proxy-forwarded',
        connectionId: client.connectionId,
        upstreamConnectionId: up.connectionId,
        kind: 'request',
        removedHeaders: [],
      });
      up.write(raw);
      up.onData((bytes) => client.write(bytes));
      up.onClose(() => client.close('origin closed; a 1.0 relay ends the client connection too'));
      client.onClose(() => up.close('client closed'));
    };

    // --- smart: one request at a time, hop-by-hop fields removed both ways --------------------------
    const forward = (): void => {
      if (mode !== 'reading') return;
      const request = queue.shift();
      if (!request) return;
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
        upstreamConnectionId: up.connectionId,
        kind: 'request',
        removedHeaders: removed,
      });
      let upBuffer: Uint8Array = new Uint8Array(0);
      let done = false;
      const finish = (response: WireResponse): void => {
        done = true;
        offData();
        offClose();
        const back = stripHopByHop(response.headers);
        ctx.trace.emit({
          type: 'proxy-forwarded',
          connectionId: client.connectionId,
          upstreamConnectionId: up.connectionId,
          kind: 'response',
          removedHeaders: back.removed,
        });
        const keep = clientPersists && (mode as string) !== 'dropping';
        const headers = [
          ...back.kept.filter((h) => h.name.toLowerCase() !== 'content-length'),
          { name: 'Via', value: `${response.version} ${this.#config.name}` },
        ];
        // The message is re-framed for this hop (Transfer-Encoding was hop-by-hop): HEAD keeps the origin's
        // Content-Length, 1xx/204/304 carry none (RFC 9110 §8.6), everything else gets the stored length.
        const bodyless = response.status < 200 || response.status === 204 || response.status === 304;
        const length = request.method === 'HEAD' ? header(response.headers, 'content-length') : bodyless ? undefined : String(response.body.length);
        if (length !== undefined) headers.push({ name: 'Content-Length', value: length });
        if (!keep) headers.push({ name: 'Connection', value: 'close' });
        client.write(codec.encodeResponse({ ...response, version: request.version, headers }, request.method));
        if (headerTokens(response.headers, 'connection').includes('close')) up.close('origin asked to close');
        if (!keep) {
          client.close(mode === 'dropping' ? 'proxy cannot pipeline' : 'client connection not persistent');
          return;
        }
        move('reading', 'response');
        forward();
      };
      const offData = up.onData((bytes) => {
        upBuffer = concat(upBuffer, bytes);
        const decoded = codec.decodeResponse(upBuffer, { requestMethod: request.method, requestVersion: '1.1', closed: false });
        if (decoded.kind === 'message') {
          upBuffer = upBuffer.subarray(decoded.consumed);
          finish(decoded.message);
        } else if (decoded.kind === 'error') {
          // The origin's response is one the engine rejects: the proxy answers 502 (the engine's status for a
          // response, RFC 9110 §15.6.3) and closes both hops rather than pass on what it cannot frame.
          done = true;
          offData();
          offClose();
          up.close('origin response rejected');
          reject(decoded.error);
        }
      });
      const offClose = up.onClose(() => {
        if (done) return;
        const decoded = codec.decodeResponse(upBuffer, { requestMethod: request.method, requestVersion: '1.1', closed: true });
        if (decoded.kind === 'message') finish(decoded.message);
        else client.abort('origin closed without a response');
      });
      up.write(codec.encodeRequest(outgoing));
    };

    /**
     * The engine (codec: src/wire/http1's reader) refused the request: the proxy refuses it as the server does,
     * with the engine's status (400 by default, 431, 414, 501...), its words as the body, and closes: a proxy
     * that forwarded what it could not parse would be a request-smuggling gap (RFC 9112 §11.2).
     */
    const reject = (error: WireError): void => {
      const status = error.statusHint ?? 400;
      ctx.trace.emit({
        type: 'protocol-error',
        connectionId: client.connectionId,
        by: 'proxy',
        protocol: 'http/1',
        code: error.code,
        message: error.message,
        offset: error.offset ?? null,
        status,
      });
      mode = 'relay'; // nothing more is read from this client
      const headers = [
        { name: 'Connection', value: 'close' },
        { name: 'Content-Type', value: 'text/plain;charset=UTF-8' },
      ];
      client.write(codec.encodeResponse({ version: '1.1', status, reason: reasonPhrase(status), headers, body: new TextEncoder().encode(error.message) }));
      client.close('bad request');
    };

    client.onData((bytes) => {
      if (mode === 'relay') return; // dumb relay after its one request, or a tunnel (relay() copies)
      buffer = concat(buffer, bytes);
      for (;;) {
        const decoded = codec.decodeRequest(buffer);
        if (decoded.kind === 'need-more') return;
        if (decoded.kind === 'error') {
          reject(decoded.error);
          return;
        }
        const raw = buffer.subarray(0, decoded.consumed);
        buffer = buffer.subarray(decoded.consumed);
        const request = decoded.message;
        parsed(request);
        if (request.method === 'CONNECT') {
          tunnel(request, buffer);
          buffer = new Uint8Array(0);
          return;
        }
        if (kind === 'dumb') {
          dumb(request, raw.slice());
          buffer = new Uint8Array(0);
          return;
        }
        if (mode === 'busy' && !this.#config.pipelining) {
          move('dropping', 'pipelined request');
          continue;
        }
        if (mode === 'dropping') continue;
        queue.push(request);
        forward();
      }
    });
    client.onClose(() => upstream?.close('client closed'));
  }
}
