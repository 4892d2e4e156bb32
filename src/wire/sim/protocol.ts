/**
 * The seams of the simulation layer: a `ClientProtocol` takes the exchanges `sim.fetch` makes, a
 * `ServerProtocol` serves the connections the mock server accepts. Each HTTP version plugs in behind both
 * (sim/http1/, sim/http2/, sim/http3/); the driver (simulation.ts) and the listener (listen.ts) know only these
 * interfaces. The server side mirrors the Node adapters' (src/wire/node/protocol.ts): HTTP/1 is the fallback,
 * and another version claims a connection from its first bytes.
 */
import type { MessageCodec } from '../net/codec';
import type { Link } from '../net/link';
import type { ResolvedSimulationOptions } from '../net/options';
import type { ByteStream } from '../net/stream';
import type { NetContext, TcpNetwork } from '../net/tcp';
import type { TlsVersion } from '../net/tls';
import type { TlsKeyShare } from '../transport/tls-sizes';
import type { MockServer } from '../server/server';
import type { Exchange } from './exchange';

/** What a client protocol implementation must offer the simulation. */
export interface ClientProtocol {
  /** Which pool a URL's requests share (an origin, or a proxy). */
  keyFor(url: URL): string;
  submit(exchange: Exchange): void;
  abort(exchange: Exchange): void;
}

export interface ProtocolEnv {
  readonly options: ResolvedSimulationOptions;
  readonly ctx: NetContext;
  readonly network: TcpNetwork;
  /** The client's first hop. */
  readonly link: Link;
  readonly codec: MessageCodec;
  readonly ipFor: (host: string) => string;
  readonly proxyAddress: string | undefined;
  /** The proxy's address on the network, for HAR's serverIPAddress (what browsers report through a proxy). */
  readonly proxyIP: string | undefined;
  /**
   * Registers host-side async work (a route handler's promise, its body stream) so the driver does not
   * move virtual time past it: what server.attach gets for HTTP/1 and HTTP/2, for servers that protocol
   * factories run themselves (HTTP/3).
   */
  readonly track: (work: Promise<unknown>) => void;
}

export type ClientProtocolFactory = (env: ProtocolEnv) => ClientProtocol;

/** What a server protocol gets for every connection it serves. */
export interface ServerEnv {
  readonly network: TcpNetwork;
  readonly address: string;
  readonly codec: MessageCodec;
  /** 'http://host' or 'https://host': the origin handlers see in request.url. */
  readonly origin: string;
  readonly tls?: TlsVersion;
  /** With `tls`: size of the server's Certificate message, bytes (the `certificateChainBytes` option). */
  readonly certificateChainBytes?: number;
  /** With `tls`: the key exchange (the `tlsKeyShare` option). */
  readonly tlsKeyShare?: TlsKeyShare;
  /** Registers host-side async work (handlers) so the simulation waits for it before moving time. */
  readonly track: (work: Promise<unknown>) => void;
  /** Unix ms at virtual time 0, for the Date header. */
  readonly epoch: number;
  /**
   * Also speak HTTP/2: a connection whose first bytes are the client preface (RFC 9113 §3.4) is served by
   * sim/http2/server.ts, anything else stays HTTP/1. This stands in for ALPN "h2" over TLS (§3.2) and is
   * exactly prior knowledge for cleartext (§3.3).
   */
  readonly http2?: boolean;
}

/** The listener's options (the name `MockServer.attach` had). */
export type AttachOptions = ServerEnv;

export type Detection = 'yes' | 'no' | 'need-more';

/** What a server protocol implementation must offer the simulation's listener (listen.ts). */
export interface ServerProtocol {
  /** An ALPN-style identifier ('http/1.1', 'h2'), for tests. */
  readonly id: string;
  /** Does a connection whose first bytes are `prefix` speak this protocol? 'need-more' to see more bytes. */
  detect(prefix: Uint8Array): Detection;
  /** Serves one accepted connection; `initial` holds the bytes `detect` saw, not yet read. */
  serve(server: MockServer, stream: ByteStream, env: ServerEnv, initial: Uint8Array | undefined): void;
}

/** A detector for protocols that start with a fixed preface. */
export const prefaceDetector =
  (preface: Uint8Array) =>
  (prefix: Uint8Array): Detection => {
    const n = Math.min(prefix.length, preface.length);
    for (let i = 0; i < n; i++) if (prefix[i] !== preface[i]) return 'no';
    return prefix.length >= preface.length ? 'yes' : 'need-more';
  };
