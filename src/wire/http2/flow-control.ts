/**
 * A flow-control window (RFC 9113 §5.2, §6.9): how many more DATA octets one side may send on one
 * stream or on the whole connection. Each endpoint keeps two per stream plus two for the connection:
 * one for what it may send (shrunk by sending DATA, grown by the peer's WINDOW_UPDATE) and one for what
 * it lets the peer send (shrunk by receiving DATA, grown by its own WINDOW_UPDATE).
 *
 * The window may go negative when the peer lowers SETTINGS_INITIAL_WINDOW_SIZE (§6.9.2); it may never
 * exceed 2^31 - 1 (§6.9.1). Methods return an error message instead of throwing, so the caller picks
 * the scope (stream or connection) and the side.
 */
import { MAX_WINDOW_SIZE } from './constants';

export class FlowControlWindow {
  private _size: number;
  /** Octets received since we last announced a WINDOW_UPDATE (receive windows only). */
  private unacknowledged = 0;

  constructor(
    initial: number,
    /** The size we aim to restore with WINDOW_UPDATE (receive windows); follows our settings. */
    private target = initial,
  ) {
    this._size = initial;
  }

  get size(): number {
    return this._size;
  }

  /** Takes `n` octets out of the window; fails when the window is smaller. */
  consume(n: number): string | null {
    if (n > this._size) return `${n} octets exceed the flow-control window of ${this._size}`;
    this._size -= n;
    this.unacknowledged += n;
    return null;
  }

  /** Applies a WINDOW_UPDATE increment. */
  expand(increment: number): string | null {
    if (this._size + increment > MAX_WINDOW_SIZE) {
      return `window of ${this._size} + increment ${increment} exceeds 2^31-1`;
    }
    this._size += increment;
    return null;
  }

  /** Applies a change of SETTINGS_INITIAL_WINDOW_SIZE: every stream window moves by the difference. */
  adjust(delta: number, newTarget = this.target + delta): string | null {
    if (this._size + delta > MAX_WINDOW_SIZE) return `window of ${this._size} + ${delta} exceeds 2^31-1`;
    this._size += delta;
    this.target = newTarget;
    return null;
  }

  /**
   * For receive windows: the increment to announce now, or 0. We refill once half the target has been
   * used, the common policy (one WINDOW_UPDATE per half window rather than one per DATA frame).
   */
  takeUpdate(): number {
    if (this.unacknowledged === 0 || this._size > this.target / 2) return 0;
    const increment = Math.min(this.target - this._size, MAX_WINDOW_SIZE - this._size);
    this.unacknowledged = 0;
    if (increment <= 0) return 0;
    this._size += increment;
    return increment;
  }
}
