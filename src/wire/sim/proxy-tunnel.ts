/**
 * The client end of a CONNECT tunnel (RFC 9110 §9.3.6): a ByteStream that first asks the proxy for a
 * tunnel to `authority` and becomes open once a 2xx arrives. After that every byte passes through
 * untouched, so TLS (and later HTTP/2) can run end to end across the proxy.
 *
 * The proxy's answer is read by the HTTP/1 engine's connection as a client (Http1Observer, driving;
 * 'http1-client' transitions on this connection), like any response: what the engine rejects the tunnel
 * rejects, traced with the engine's code and offset, and a 2xx moves both sides to SWITCHED_PROTOCOL, after which
 * the bytes that followed the answer (RFC 9112 §6.3 rule 2: a 2xx to CONNECT has no content) are the tunnel's.
 */
import type { MessageCodec, WireRequest } from '../net/codec';
import { startLine } from '../net/codec';
import type { ByteStream, CloseInfo, StreamState } from '../net/stream';
import type { NetContext } from '../net/tcp';
import { Signal, type Unsubscribe } from '../trace/subscribable';
import { Http1Observer } from './http1/observer';
import { traceHttp1ProtocolError } from './http1/protocol-error';

/** A bound on the engine steps one arrival is turned into (each step consumes bytes or ends the loop). */
const MAX_STEPS_PER_READ = 100_000;

export class ConnectTunnel implements ByteStream {
  readonly #inner: ByteStream;
  #state: StreamState = 'connecting';
  readonly #pending: Uint8Array[] = [];
  #closeRequested: string | undefined;
  readonly #opened = new Signal<void>();
  readonly #data = new Signal<Uint8Array>();
  readonly #closed = new Signal<CloseInfo>();
  readonly #engine: Http1Observer;
  /** Virtual time the tunnel opened. */
  openedAt: number | undefined;

  /** `codec` writes the CONNECT request; the engine reads the answer. */
  constructor(inner: ByteStream, authority: string, codec: MessageCodec, ctx: NetContext) {
    this.#inner = inner;
    this.#engine = new Http1Observer('client', inner.connectionId, ctx, { driving: true });
    const request: WireRequest = {
      method: 'CONNECT',
      target: authority,
      version: '1.1',
      headers: [{ name: 'Host', value: authority }],
      body: new Uint8Array(0),
    };
    const start = (): void => {
      ctx.trace.emit({
        type: 'request-sent',
        requestId: `${inner.connectionId}/CONNECT`,
        connectionId: inner.connectionId,
        startLine: startLine(request),
        headers: request.headers,
      });
      const refused = this.#engine.sent(request);
      if (refused) {
        inner.abort(`CONNECT ${authority} not sent: ${refused.message}`);
        return;
      }
      inner.write(codec.encodeRequest(request));
    };
    if (inner.state === 'open') start();
    else inner.onOpen(start);
    inner.onData((bytes) => {
      if (this.#state === 'open') {
        this.#data.emit(bytes);
        return;
      }
      if (this.#state !== 'connecting') return;
      this.#engine.feed(bytes);
      for (let i = 0; i < MAX_STEPS_PER_READ; i++) {
        const step = this.#engine.next();
        if (step.type === 'informational') continue; // a 1xx before the answer (RFC 9110 §15.2): read past it
        if (step.type === 'error') {
          // What the HTTP/1 engine rejects, the tunnel rejects, traced as the client does.
          traceHttp1ProtocolError(ctx, inner.connectionId, 'client', step.error, null);
          this.#refuse(`CONNECT ${authority} refused: ${step.error.message}`);
          return;
        }
        if (step.type !== 'response') return; // need-data; nothing else can come before the answer's head
        if (step.status < 200 || step.status > 299) {
          this.#refuse(`CONNECT ${authority} refused: ${step.status} ${step.reason}`);
          return;
        }
        ctx.trace.emit({
          type: 'message-parsed',
          connectionId: inner.connectionId,
          by: 'client',
          kind: 'response',
          startLine: startLine({ version: step.version, status: step.status, reason: step.reason, headers: step.headers, body: new Uint8Array(0) }),
          headers: step.headers,
          bodyLength: 0,
        });
        this.#open(ctx, this.#engine.trailing());
        return;
      }
    });
    inner.onClose((info) => {
      this.#state = 'closed';
      this.#closed.emit(info);
    });
  }

  #refuse(reason: string): void {
    this.#state = 'closing';
    this.#inner.abort(reason);
  }

  #open(ctx: NetContext, rest: Uint8Array): void {
    this.#state = 'open';
    this.openedAt = ctx.clock.now();
    this.#opened.emit();
    for (const chunk of this.#pending.splice(0)) this.#inner.write(chunk);
    if (this.#closeRequested !== undefined) this.#inner.close(this.#closeRequested);
    if (rest.length > 0) this.#data.emit(rest);
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
