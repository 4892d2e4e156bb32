/**
 * The client end of a CONNECT tunnel (RFC 9110 §9.3.6): a ByteStream that first asks the proxy for a
 * tunnel to `authority` and becomes open once a 2xx arrives. After that every byte passes through
 * untouched, so TLS (and later HTTP/2) can run end to end across the proxy.
 */
import type { MessageCodec } from './codec';
import { startLine } from './codec';
import type { ByteStream, CloseInfo, StreamState } from './stream';
import { concatBytes } from './stream';
import type { NetContext } from './tcp';
import { Signal, type Unsubscribe } from '../trace/subscribable';

export class ConnectTunnel implements ByteStream {
  readonly #inner: ByteStream;
  #state: StreamState = 'connecting';
  #buffer: Uint8Array = new Uint8Array(0);
  readonly #pending: Uint8Array[] = [];
  #closeRequested: string | undefined;
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();
  /** Virtual time the tunnel opened. */
  openedAt: number | undefined;

  constructor(inner: ByteStream, authority: string, codec: MessageCodec, ctx: NetContext) {
    this.#inner = inner;
    const request = { method: 'CONNECT', target: authority, version: '1.1' as const, headers: [{ name: 'Host', value: authority }], body: new Uint8Array(0) };
    const start = (): void => {
      ctx.trace.emit({
        type: 'request-sent',
        requestId: `${inner.connectionId}/CONNECT`,
        connectionId: inner.connectionId,
        startLine: startLine(request),
        headers: request.headers,
      });
      inner.write(codec.encodeRequest(request));
    };
    if (inner.state === 'open') start();
    else inner.onOpen(start);
    inner.onData((bytes) => {
      if (this.#state === 'open') {
        this.#data.emit(bytes);
        return;
      }
      this.#buffer = this.#buffer.length === 0 ? bytes : concatBytes([this.#buffer, bytes]);
      // RFC 9112 §6.3 rule 2: a 2xx answer to CONNECT has no content; the tunnel starts right after it.
      const decoded = codec.decodeResponse(this.#buffer, { requestMethod: 'CONNECT', requestVersion: '1.1', closed: false });
      if (decoded.kind === 'need-more') return;
      if (decoded.kind === 'error') {
        // What the HTTP/1 engine (the codec's reader) rejects, the tunnel rejects, traced as the client does.
        const { error } = decoded;
        ctx.trace.emit({
          type: 'protocol-error',
          connectionId: inner.connectionId,
          by: 'client',
          protocol: 'http/1',
          code: error.code,
          message: error.message,
          offset: error.offset ?? null,
          status: null,
        });
      }
      if (decoded.kind === 'error' || decoded.message.status < 200 || decoded.message.status > 299) {
        const why = decoded.kind === 'error' ? decoded.error.message : `${decoded.message.status} ${decoded.message.reason}`;
        inner.abort(`CONNECT ${authority} refused: ${why}`);
        return;
      }
      ctx.trace.emit({
        type: 'message-parsed',
        connectionId: inner.connectionId,
        by: 'client',
        kind: 'response',
        startLine: startLine(decoded.message),
        headers: decoded.message.headers,
        bodyLength: 0,
      });
      const rest = this.#buffer.subarray(decoded.consumed);
      this.#buffer = new Uint8Array(0);
      this.#state = 'open';
      this.openedAt = ctx.clock.now();
      this.#opened.emit();
      for (const chunk of this.#pending.splice(0)) inner.write(chunk);
      if (this.#closeRequested !== undefined) inner.close(this.#closeRequested);
      if (rest.length > 0) this.#data.emit(rest);
    });
    inner.onClose((info) => {
      this.#state = 'closed';
      this.#closed.emit(info);
    });
  }

  get connectionId(): string {
    return this.#inner.connectionId;
  }
  get side(): 'client' {
    return 'client';
  }
  get state(): StreamState {
    return this.#state;
  }
  write(bytes: Uint8Array): void {
    if (this.#state === 'open') this.#inner.write(bytes);
    else if (this.#state === 'connecting') this.#pending.push(bytes.slice());
  }
  close(reason?: string): void {
    if (this.#state === 'open') this.#inner.close(reason);
    else this.#closeRequested = reason ?? 'closed by application';
  }
  abort(reason?: string): void {
    this.#inner.abort(reason);
  }
  onOpen(listener: () => void): Unsubscribe {
    return this.#opened.subscribe(listener);
  }
  onData(listener: (bytes: Uint8Array) => void): Unsubscribe {
    return this.#data.subscribe(listener);
  }
  onClose(listener: (info: CloseInfo) => void): Unsubscribe {
    return this.#closed.subscribe(listener);
  }
}
