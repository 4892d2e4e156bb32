/**
 * The simulation's server side: listens for a MockServer on the simulated network and gives each accepted
 * connection to the `ServerProtocol` that claims it from its first bytes (protocol.ts); HTTP/1 serves every
 * connection no other protocol claims. With `http2` the HTTP/2 protocol is offered (the client preface, RFC
 * 9113 §3.4), standing in for ALPN "h2" over TLS (§3.2) and exactly prior knowledge for cleartext (§3.3).
 */
import type { ByteStream } from '../net/stream';
import { concatBytes } from '../net/stream';
import { TlsStream } from '../net/tls';
import type { MockServer } from '../server/server';
import { http1Server } from './http1/server';
import { http2Server } from './http2/server';
import type { ServerEnv, ServerProtocol } from './protocol';

const HTTP1 = http1Server();
const HTTP2 = http2Server();

/** Listens for `server` on the simulated network. Returns a function that stops listening. */
export function listen(server: MockServer, env: ServerEnv, protocols: readonly ServerProtocol[] = env.http2 ? [HTTP2] : []): () => void {
  const ctx = env.network.ctx;
  return env.network.listen(env.address, 'server', (socket) => {
    const stream: ByteStream = env.tls
      ? new TlsStream(socket, env.tls, ctx, { certificateChainBytes: env.certificateChainBytes, keyShare: env.tlsKeyShare })
      : socket;
    if (protocols.length === 0) HTTP1.serve(server, stream, env, undefined);
    else select(server, stream, env, protocols);
  });
}

/** Reads the first bytes of a connection until one protocol claims it or all say no (then HTTP/1 serves it). */
function select(server: MockServer, stream: ByteStream, env: ServerEnv, protocols: readonly ServerProtocol[]): void {
  const { clock } = env.network.ctx;
  let buffered: Uint8Array = new Uint8Array(0);
  const wait = server.defences.prefaceTimeout;
  // A connection that sends nothing, or a preface byte now and then, would otherwise be held forever.
  const timer =
    wait === false
      ? undefined
      : clock.setTimeout(() => {
          stop();
          stream.close('no HTTP/2 preface or HTTP/1 request in time');
        }, wait);
  stream.onClose(() => clock.clearTimeout(timer));
  const stop = stream.onData((bytes) => {
    buffered = concatBytes([buffered, bytes]);
    const verdicts = protocols.map((p) => p.detect(buffered));
    const yes = verdicts.indexOf('yes');
    if (yes < 0 && verdicts.includes('need-more')) return;
    stop();
    clock.clearTimeout(timer);
    (yes >= 0 ? protocols[yes]! : HTTP1).serve(server, stream, env, buffered);
  });
}
