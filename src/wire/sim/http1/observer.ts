/**
 * Runs src/wire/http1's connection engine (Http1Connection) alongside one simulated connection and
 * traces every row of its state table that fires ('transition' events with machine 'http1-client' or
 * 'http1-server'). The engine sees exactly the messages this side sends and the bytes it receives, so
 * the docs' HTTP/1 state diagram can light up in step with the animation.
 *
 * It only observes: the network layers keep deciding what to send. If the engine refuses something
 * (it is stricter than a lesson sometimes wants, e.g. about bytes after a close), the refusal is traced
 * as its move to ERROR and the observer stops; the simulated connection carries on.
 */
import {
  Http1Connection,
  http1Data,
  http1EndOfMessage,
  http1Informational,
  http1Request,
  http1Response,
  http1ConnectionClosed,
  type Http1FiredTransition,
} from '../../http1/index';
import type { WireRequest, WireResponse } from '../../net/codec';
import type { NetContext } from '../../net/tcp';

export class Http1Observer {
  readonly #engine: Http1Connection;
  readonly #ctx: NetContext;
  readonly #connectionId: string;
  readonly #machine: string;
  #stopped = false;

  constructor(role: 'client' | 'server', connectionId: string, ctx: NetContext) {
    this.#engine = new Http1Connection({ role, pipelining: true });
    this.#ctx = ctx;
    this.#connectionId = connectionId;
    this.#machine = `http1-${role}`;
  }

  /** This side sent a whole message. */
  sent(message: WireRequest | WireResponse): void {
    this.#guard(() => {
      const head =
        'method' in message
          ? http1Request({ method: message.method, target: message.target, version: message.version, headers: message.headers })
          : message.status < 200
            ? http1Informational(message)
            : http1Response(message);
      this.#engine.send(head);
      if (head.type !== 'informational') {
        if (message.body.length > 0) this.#engine.send(http1Data(message.body));
        this.#engine.send(http1EndOfMessage());
      }
    });
  }

  /** This side received bytes (or, with no bytes, learned that the peer closed). */
  received(bytes: Uint8Array | 'eof'): void {
    this.#guard(() => {
      if (bytes === 'eof') this.#engine.receiveEof();
      else this.#engine.receiveData(bytes);
    });
  }

  /** This side closed the connection. */
  closed(): void {
    this.#guard(() => this.#engine.send(http1ConnectionClosed()));
  }

  #guard(action: () => void): void {
    if (this.#stopped) return;
    try {
      action();
      this.#drain();
    } catch {
      this.#stopped = true;
    }
    this.#flush();
  }

  /** Reads every event the engine can produce now, so its receive-side rows fire. */
  #drain(): void {
    for (let i = 0; i < 10_000; i++) {
      const step = this.#engine.nextEvent();
      if (step.type === 'need-data' || step.type === 'paused') return;
      if (step.type === 'error' || step.type === 'connection-closed') {
        if (step.type === 'error') this.#stopped = true;
        return;
      }
    }
  }

  #flush(): void {
    for (const fired of this.#engine.takeTransitions()) this.#emit(fired);
  }

  #emit(fired: Http1FiredTransition): void {
    const input = fired.kind === 'event' ? fired.row.id : fired.kind === 'settle' ? fired.rule.id : `error: ${fired.code}`;
    this.#ctx.trace.emit({
      type: 'transition',
      machine: this.#machine,
      connectionId: this.#connectionId,
      from: `${fired.role}:${fired.from}`,
      input,
      to: `${fired.role}:${fired.to}`,
    });
  }
}
