/**
 * A raw HTTP/2 client on the simulated network, for lessons about peers that misbehave (RFC 9113 §10.5):
 * it writes exactly the frames it is given, with no engine in between to refuse them, so a playground can
 * put a rapid reset, a CONTINUATION flood or a PING flood in front of the mock server and watch the
 * server's engine answer. Both directions are traced like any other endpoint ('h2-session', 'h2-frame' on
 * the client side), so the Frames and Sequence views show the attack and the answer.
 *
 * What it does on its own, and nothing more: the client preface and an empty SETTINGS when it connects
 * (RFC 9113 §3.4), and a SETTINGS acknowledgement for each SETTINGS the server sends (§6.5.3), both of which
 * can be turned off. It has no loop of its own: it sends what its caller writes, so an attack is as long as
 * the caller's loop, and the caller bounds it.
 *
 * Field blocks come from one HPACK encoder whose dynamic table the server's decoder mirrors, as long as every
 * block encoded is sent, in the order encoded (RFC 7541 §2.1).
 */
import { concatBytes } from '../../bytes';
import { type EncodableField, HpackEncoder } from '../../hpack/index';
import type { ByteStream, CloseInfo } from '../../net/stream';
import type { NetContext } from '../../net/tcp';
import type { TlsVersion } from '../../net/tls';
import { CLIENT_PREFACE, FLAGS, errorCodeName } from '../../http2/constants';
import { encodeFrames, parseFrame } from '../../http2/frame-codec';
import type { Frame, GoawayFrame } from '../../http2/frames';
import { Http2Tracer } from './trace';

/** The part of a simulation the raw client needs (`createSimulation`'s result has it). */
export interface RawHttp2Host {
  connect(address: string, options?: { readonly tls?: TlsVersion }): ByteStream;
  readonly network: { readonly ctx: NetContext };
  readonly options: { readonly baseUrl: string; readonly tls: TlsVersion | 'none' };
}

export interface RawHttp2Options {
  /** "host:port" to connect to. Default: the simulation's base URL (TLS when it is https:). */
  readonly address?: string;
  /** Send the client preface and an empty SETTINGS at once. Default true; false leaves every byte to the caller. */
  readonly preface?: boolean;
  /** Acknowledge each SETTINGS the server sends (RFC 9113 §6.5.3). Default true. */
  readonly ackSettings?: boolean;
}

/** The largest frame the client reads: anything the server may send (RFC 9113 §4.2). */
const MAX_FRAME_SIZE = 0xff_ffff;

export class RawHttp2Client {
  readonly connectionId: string;
  /** Every frame the server has sent, in order. */
  readonly received: Frame[] = [];
  readonly #stream: ByteStream;
  readonly #tracer: Http2Tracer;
  readonly #hpack = new HpackEncoder();
  readonly #authority: string;
  readonly #scheme: string;
  readonly #ackSettings: boolean;
  #buffer: Uint8Array = new Uint8Array(0);
  #closed: CloseInfo | undefined;
  #bytesSent = 0;
  #framesSent = 0;

  constructor(host: RawHttp2Host, options: RawHttp2Options = {}) {
    const base = new URL(host.options.baseUrl);
    const https = options.address === undefined ? base.protocol === 'https:' : options.address.endsWith(':443');
    const address = options.address ?? `${base.hostname}:${base.port || (https ? '443' : '80')}`;
    this.#authority = options.address ?? base.host;
    this.#scheme = https ? 'https' : 'http';
    this.#ackSettings = options.ackSettings ?? true;
    const tls = host.options.tls === '1.2' ? '1.2' : '1.3';
    this.#stream = host.connect(address, https ? { tls } : undefined);
    this.connectionId = this.#stream.connectionId;
    const { ctx } = host.network;
    ctx.trace.emit({ type: 'h2-session', connectionId: this.connectionId, side: 'client', protocol: https ? 'h2' : 'h2c', alpn: https ? 'h2' : null });
    this.#tracer = new Http2Tracer(ctx, this.connectionId, 'client');
    this.#stream.onData((bytes) => this.#receive(bytes));
    this.#stream.onClose((info) => (this.#closed = info));
    if (options.preface ?? true) {
      this.sendBytes(CLIENT_PREFACE);
      this.send({ type: 'SETTINGS', streamId: 0, flags: 0, settings: [] });
    }
  }

  /** The first GOAWAY the server sent, if any. */
  get goaway(): GoawayFrame | undefined {
    return this.received.find((f): f is GoawayFrame => f.type === 'GOAWAY');
  }

  /** The error code of that GOAWAY by name ('ENHANCE_YOUR_CALM', 'NO_ERROR'...), if one came. */
  get goawayError(): string | undefined {
    const g = this.goaway;
    return g && errorCodeName(g.errorCode);
  }

  /** How the connection ended, once it has (`by: 'server'` when the server closed it). */
  get closed(): CloseInfo | undefined {
    return this.#closed;
  }

  /** Octets and frames written so far (the preface counts as octets, not as a frame). */
  get sent(): { readonly bytes: number; readonly frames: number } {
    return { bytes: this.#bytesSent, frames: this.#framesSent };
  }

  /** Writes the frames as they are, in one write: nothing checks that they make sense. */
  send(...frames: Frame[]): void {
    this.#framesSent += frames.length;
    this.sendBytes(encodeFrames(frames));
  }

  /** Writes octets as they are (half a preface, a frame cut in two...). */
  sendBytes(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#bytesSent += bytes.length;
    this.#tracer.sent(bytes);
    this.#stream.write(bytes);
  }

  /** HPACK-encodes a field list with this connection's encoder. Send the block, or the tables drift apart. */
  fieldBlock(fields: readonly EncodableField[]): Uint8Array {
    return this.#hpack.encode(fields);
  }

  /** The pseudo-header fields of a request for `path` on this connection's origin (RFC 9113 §8.3.1). */
  requestFields(path: string, method = 'GET'): EncodableField[] {
    return [
      { name: ':method', value: method },
      { name: ':scheme', value: this.#scheme },
      { name: ':authority', value: this.#authority },
      { name: ':path', value: path },
    ];
  }

  /** Sends a request's HEADERS (END_HEADERS; END_STREAM unless `endStream: false`) on `streamId`. */
  request(streamId: number, path: string, opts: { readonly method?: string; readonly endStream?: boolean } = {}): void {
    const flags = FLAGS.END_HEADERS | (opts.endStream === false ? 0 : FLAGS.END_STREAM);
    this.send({ type: 'HEADERS', streamId, flags, headerBlockFragment: this.fieldBlock(this.requestFields(path, opts.method)) });
  }

  /** Closes the TCP connection (FIN after anything queued). */
  close(): void {
    this.#stream.close('raw HTTP/2 client closed');
  }

  #receive(bytes: Uint8Array): void {
    this.#tracer.received(bytes);
    let buf = this.#buffer.length === 0 ? bytes : concatBytes([this.#buffer, bytes]);
    let offset = 0;
    const acks: Frame[] = [];
    for (;;) {
      const r = parseFrame(buf, offset, MAX_FRAME_SIZE);
      if (r.kind === 'incomplete') break;
      if (r.kind === 'error') {
        // Nothing after a frame we cannot read can be framed either: stop reading this connection.
        buf = new Uint8Array(0);
        offset = 0;
        break;
      }
      if (r.kind === 'frame') {
        this.received.push(r.frame);
        if (this.#ackSettings && r.frame.type === 'SETTINGS' && !(r.frame.flags & FLAGS.ACK))
          acks.push({ type: 'SETTINGS', streamId: 0, flags: FLAGS.ACK, settings: [] });
      }
      offset = r.end;
    }
    this.#buffer = buf.slice(offset);
    if (acks.length > 0 && this.#closed === undefined) this.send(...acks);
  }
}

/**
 * Opens a raw HTTP/2 connection from the simulation's client to its mock server (which speaks HTTP/2 when
 * the simulation's `httpVersion` is '2'). See `RawHttp2Client`.
 */
export function connectRawHttp2(sim: RawHttp2Host, options?: RawHttp2Options): RawHttp2Client {
  return new RawHttp2Client(sim, options);
}
