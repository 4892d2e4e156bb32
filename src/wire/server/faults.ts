/**
 * Fault injection for the mock server: make the next N requests fail with a status or a dropped
 * connection, add latency to every response, or trickle bodies out slowly. Faults are consumed in
 * request-arrival order, so a replay with the same seed and calls fails the same requests.
 */
export type Fault =
  | { readonly kind: 'status'; readonly status: number; readonly body?: string }
  /** 'reset' aborts the connection (RST); 'close' closes it (FIN) without answering. */
  | { readonly kind: 'drop'; readonly how: 'reset' | 'close' };

export interface SlowBody {
  readonly bytesPerTick: number;
  readonly tickMs?: number;
}

export class Faults {
  readonly #queue: Fault[] = [];
  #latency = 0;
  #slowBody: SlowBody | undefined;

  /** The next `count` requests fail: `{ status: 503 }` answers with that status, `{ drop: 'reset' }` drops. */
  failNext(count: number, fault: { status: number; body?: string } | { drop: 'reset' | 'close' }): this {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`failNext expects a count >= 1, got ${count}.`);
    const one: Fault =
      'status' in fault
        ? { kind: 'status', status: fault.status, ...(fault.body === undefined ? {} : { body: fault.body }) }
        : { kind: 'drop', how: fault.drop };
    if (one.kind === 'status' && !(one.status >= 200 && one.status <= 599)) {
      throw new RangeError(`A failure status is 200-599 (Fetch cannot carry others), got ${one.status}.`);
    }
    for (let i = 0; i < count; i++) this.#queue.push(one);
    return this;
  }

  /** Extra virtual ms before every response (on top of a route's own latency). */
  latency(ms: number): this {
    if (!(ms >= 0)) throw new RangeError(`latency expects ms >= 0, got ${ms}.`);
    this.#latency = ms;
    return this;
  }

  /** Send every response body at `bytesPerTick` bytes every `tickMs` (default 10) virtual ms. */
  slowBody(slow: SlowBody | undefined): this {
    if (slow && !(slow.bytesPerTick >= 1)) throw new RangeError(`bytesPerTick must be >= 1, got ${slow.bytesPerTick}.`);
    this.#slowBody = slow;
    return this;
  }

  clear(): this {
    this.#queue.length = 0;
    this.#latency = 0;
    this.#slowBody = undefined;
    return this;
  }

  /** Takes the fault for the request that just arrived, if any. */
  take(): Fault | undefined {
    return this.#queue.shift();
  }

  get pending(): number {
    return this.#queue.length;
  }
  get extraLatency(): number {
    return this.#latency;
  }
  get slow(): SlowBody | undefined {
    return this.#slowBody;
  }
}
