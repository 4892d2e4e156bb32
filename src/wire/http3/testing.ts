/**
 * A connected pair of QUIC engines on a fake path with a fixed one-way delay, driven by its own
 * virtual time: the engine tests' harness (CONTRIBUTING.md, 'Tests'). Not exported from index.ts.
 */
import { QuicConnection, type QuicEvent, type QuicOutput, type QuicRole } from './connection';
import type { QuicDatagram } from './packets';

export interface PairOptions {
  readonly oneWay?: number;
  readonly resume?: boolean;
  /** Return true to lose this datagram. */
  readonly drop?: (datagram: QuicDatagram, from: QuicRole) => boolean;
  /** Reactions, e.g. the server answering a request: return the engine output of what it did. */
  readonly onEvent?: (pair: QuicPair, side: QuicRole, event: QuicEvent) => void;
}

export interface Logged {
  readonly at: number;
  readonly side: QuicRole;
  readonly event: QuicEvent;
}

export class QuicPair {
  readonly client: QuicConnection;
  readonly server = new QuicConnection({ role: 'server' });
  readonly log: Logged[] = [];
  readonly dropped: { at: number; from: QuicRole; datagram: QuicDatagram }[] = [];
  now = 0;
  readonly #options: PairOptions;
  readonly #queue: { at: number; seq: number; run: () => void }[] = [];
  readonly #timers: Record<QuicRole, number | undefined> = { client: undefined, server: undefined };
  #seq = 0;

  constructor(options: PairOptions = {}) {
    this.#options = options;
    this.client = new QuicConnection({ role: 'client', resume: options.resume === true });
  }

  engine(side: QuicRole): QuicConnection {
    return side === 'client' ? this.client : this.server;
  }

  apply(side: QuicRole, out: QuicOutput): void {
    const other: QuicRole = side === 'client' ? 'server' : 'client';
    for (const event of out.events) this.log.push({ at: this.now, side, event });
    for (const datagram of out.datagrams) {
      if (this.#options.drop?.(datagram, side)) {
        this.dropped.push({ at: this.now, from: side, datagram });
        continue;
      }
      this.#queue.push({
        at: this.now + (this.#options.oneWay ?? 50),
        seq: this.#seq++,
        run: () => this.apply(other, this.engine(other).receive(datagram, this.now)),
      });
    }
    this.#timers[side] = out.timer;
    for (const event of out.events) this.#options.onEvent?.(this, side, event);
  }

  /** Runs deliveries and timers in time order until nothing is left or `until` is reached. */
  run(until = 60_000): void {
    for (;;) {
      this.#queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#queue[0];
      const timers = (['client', 'server'] as const).filter((s) => this.#timers[s] !== undefined).map((s) => ({ side: s, at: this.#timers[s]! }));
      timers.sort((a, b) => a.at - b.at);
      const timer = timers[0];
      if (!next && !timer) return;
      if (timer && (!next || timer.at < next.at)) {
        if (timer.at > until) return;
        this.now = Math.max(this.now, timer.at);
        this.#timers[timer.side] = undefined;
        this.apply(timer.side, this.engine(timer.side).timeout(this.now));
        continue;
      }
      if (next!.at > until) return;
      this.#queue.shift();
      this.now = Math.max(this.now, next!.at);
      next!.run();
    }
  }

  events<T extends QuicEvent['type']>(side: QuicRole, type: T): (Logged & { event: Extract<QuicEvent, { type: T }> })[] {
    return this.log.filter((l): l is Logged & { event: Extract<QuicEvent, { type: T }> } => l.side === side && l.event.type === type);
  }
}
