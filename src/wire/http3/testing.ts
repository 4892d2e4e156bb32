/**
 * Connected pairs of engines on a fake path with a fixed one-way delay, driven by their own virtual
 * time: the engine tests' harnesses (CONTRIBUTING.md, 'Tests'), `QuicPair` for the QUIC engine and
 * `Http3Pair` for HTTP/3. Not exported from index.ts.
 */
import type { WireRole } from '../engine';
import { QuicConnection } from './connection';
import type { QuicEvent, QuicOutput, QuicRole } from './quic-events';
import { Http3Connection } from './http3-connection';
import type { Http3Event } from './http3-events';
import type { Http3QpackOptions } from './http3-options';
import type { QuicDatagram } from './packets';
import type { TlsKeyShare } from '../transport/tls-sizes';

export interface PairOptions {
  readonly oneWay?: number;
  readonly resume?: boolean;
  /** Return true to lose this datagram. */
  readonly drop?: (datagram: QuicDatagram, from: QuicRole) => boolean;
  /** Reactions, e.g. the server answering a request: return the engine output of what it did. */
  readonly onEvent?: (pair: QuicPair, side: QuicRole, event: QuicEvent) => void;
  /**
   * The TLS key exchange. Default 'x25519' here (280-byte ClientHello, 90-byte ServerHello): the packet and
   * window arithmetic of the tests that use this pair is worked with those sizes.
   */
  readonly keyShare?: TlsKeyShare;
}

export interface Logged {
  readonly at: number;
  readonly side: QuicRole;
  readonly event: QuicEvent;
}

export class QuicPair {
  readonly client: QuicConnection;
  readonly server: QuicConnection;
  readonly log: Logged[] = [];
  readonly dropped: { at: number; from: QuicRole; datagram: QuicDatagram }[] = [];
  now = 0;
  readonly #options: PairOptions;
  readonly #queue: { at: number; seq: number; run: () => void }[] = [];
  readonly #timers: Record<QuicRole, number | undefined> = { client: undefined, server: undefined };
  #seq = 0;

  constructor(options: PairOptions = {}) {
    this.#options = options;
    const keyShare = options.keyShare ?? 'x25519';
    this.client = new QuicConnection({ role: 'client', resume: options.resume === true, keyShare });
    this.server = new QuicConnection({ role: 'server', keyShare });
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

export interface Http3Logged {
  readonly at: number;
  readonly side: WireRole;
  readonly event: Http3Event;
}

/**
 * Two Http3Connection engines back to back on a fake path with a fixed one-way delay, moved only through
 * the common verbs (engine.ts): `receive`, `dataToSend`, `nextTimeout`, `timeout`. `react` plays the
 * application on each side (a server answering a request) and returns the events its actions caused.
 */
export class Http3Pair {
  readonly client: Http3Connection;
  readonly server: Http3Connection;
  readonly log: Http3Logged[] = [];
  readonly dropped: { at: number; from: WireRole; datagram: QuicDatagram }[] = [];
  now = 0;
  readonly #drop: ((datagram: QuicDatagram, from: WireRole) => boolean) | undefined;
  readonly #oneWay: number;
  readonly #react: ((pair: Http3Pair, side: WireRole, event: Http3Event) => readonly Http3Event[] | undefined) | undefined;
  readonly #queue: { at: number; seq: number; to: WireRole; datagram: QuicDatagram }[] = [];
  #seq = 0;

  constructor(
    options: {
      oneWay?: number;
      resume?: boolean;
      react?: (pair: Http3Pair, side: WireRole, event: Http3Event) => readonly Http3Event[] | undefined;
      /** The QPACK limits each side announces (HTTP3_QPACK_DEFAULTS when left out). */
      qpack?: { readonly client?: Http3QpackOptions; readonly server?: Http3QpackOptions };
      /** Return true to lose this datagram (once: it is not asked again about a retransmission's new datagram unless it says so). */
      drop?: (datagram: QuicDatagram, from: WireRole) => boolean;
    } = {},
  ) {
    this.#oneWay = options.oneWay ?? 25;
    this.#react = options.react;
    this.#drop = options.drop;
    this.client = new Http3Connection({ role: 'client', resume: options.resume === true, ...(options.qpack?.client ? { qpack: options.qpack.client } : {}) });
    this.server = new Http3Connection({ role: 'server', ...(options.qpack?.server ? { qpack: options.qpack.server } : {}) });
  }

  engine(side: WireRole): Http3Connection {
    return side === 'client' ? this.client : this.server;
  }

  /** Logs what `side` did, queues its datagrams for the other side, and lets `react` answer each event. */
  record(side: WireRole, events: readonly Http3Event[]): void {
    for (const event of events) this.log.push({ at: this.now, side, event });
    const to: WireRole = side === 'client' ? 'server' : 'client';
    for (const datagram of this.engine(side).dataToSend()) {
      if (this.#drop?.(datagram, side)) {
        this.dropped.push({ at: this.now, from: side, datagram });
        continue;
      }
      this.#queue.push({ at: this.now + this.#oneWay, seq: this.#seq++, to, datagram });
    }
    for (const event of events) {
      const more = this.#react?.(this, side, event);
      if (more) this.record(side, more);
    }
  }

  /** Delivers datagrams and fires timers in time order until nothing is left or `until` is reached. */
  run(until = 10_000): void {
    for (let steps = 0; steps < 100_000; steps++) {
      this.#queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#queue[0];
      const timers = (['client', 'server'] as const)
        .map((side) => ({ side, at: this.engine(side).nextTimeout(this.now) }))
        .filter((t): t is { side: WireRole; at: number } => t.at !== undefined)
        .sort((a, b) => a.at - b.at);
      const timer = timers[0];
      if (!next && !timer) return;
      if (timer && (!next || timer.at < next.at)) {
        if (timer.at > until) return;
        this.now = Math.max(this.now, timer.at);
        this.record(timer.side, this.engine(timer.side).timeout(this.now));
        continue;
      }
      if (next!.at > until) return;
      this.#queue.shift();
      this.now = Math.max(this.now, next!.at);
      this.record(next!.to, this.engine(next!.to).receive(next!.datagram, this.now));
    }
    throw new Error('Http3Pair.run: no quiescence after 100 000 steps');
  }

  events<T extends Http3Event['type']>(side: WireRole, type: T): Extract<Http3Event, { type: T }>[] {
    return this.log.filter((l) => l.side === side && l.event.type === type).map((l) => l.event as Extract<Http3Event, { type: T }>);
  }
}
