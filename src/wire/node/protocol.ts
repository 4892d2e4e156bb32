/**
 * The seam between the TCP listener and the protocol spoken on each accepted connection.
 *
 * A `ServerProtocol` gets the connection's Transport and the Dispatch and runs until the connection ends.
 * HTTP/1.x is the fallback: it serves every connection that no other protocol claims. Another protocol
 * claims a connection by prior knowledge, from its first bytes: that is how h2c starts (RFC 9113 §3.3,
 * the client sends the 24-byte preface "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" first). The h2c session plugs in
 * that way: `serveTcp(mock, { protocols: [h2cProtocol()] })` (h2c-server.ts).
 *
 * The HTTP/1.1 `Upgrade: h2c` route is not wired: RFC 9113 §3.1 deprecates it, and the HTTP/1 session
 * declines every Upgrade by answering the request normally (RFC 9110 §7.8 lets a server ignore it).
 */
import type { Dispatch } from './dispatch';
import type { Timers, Transport } from './transport';

export type Detection = 'yes' | 'no' | 'need-more';

export interface ServerProtocol {
  /** An ALPN-style identifier ('http/1.1', 'h2c'), for logs and tests. */
  readonly id: string;
  /** Does a connection whose first bytes are `prefix` speak this protocol? 'need-more' to see more bytes. */
  detect(prefix: Uint8Array): Detection;
  /** Serves the connection until it ends. The bytes `detect` saw are still unread on the transport. */
  serve(transport: Transport, dispatch: Dispatch, env: ProtocolEnv): Promise<void>;
}

/** What every protocol session gets from the listener. */
export interface ProtocolEnv {
  readonly timers: Timers;
  /** Wall-clock ms, for the Date header. */
  readonly now: () => number;
  /** The mock server's name, for the Server header (a protocol's own option may override it). */
  readonly name?: string;
}

/** A detector for protocols that start with a fixed preface. */
export const prefaceDetector =
  (preface: Uint8Array) =>
  (prefix: Uint8Array): Detection => {
    const n = Math.min(prefix.length, preface.length);
    for (let i = 0; i < n; i++) if (prefix[i] !== preface[i]) return 'no';
    return prefix.length >= preface.length ? 'yes' : 'need-more';
  };

/**
 * Reads the first bytes of a connection until one protocol claims it or all say no; returns the claimant
 * (or undefined: the fallback serves it). The bytes read are put back, unconsumed.
 */
export const selectProtocol = async (transport: Transport, protocols: readonly ServerProtocol[]): Promise<ServerProtocol | undefined> => {
  if (protocols.length === 0) return undefined;
  let prefix = new Uint8Array(0);
  try {
    for (;;) {
      const verdicts = protocols.map((p) => p.detect(prefix));
      const yes = verdicts.indexOf('yes');
      if (yes >= 0) return protocols[yes];
      if (!verdicts.includes('need-more')) return undefined;
      const chunk = await transport.read();
      if (chunk === null) return undefined;
      const joined = new Uint8Array(prefix.length + chunk.length);
      joined.set(prefix);
      joined.set(chunk, prefix.length);
      prefix = joined;
    }
  } finally {
    if (prefix.length > 0) transport.unread(prefix);
  }
};
