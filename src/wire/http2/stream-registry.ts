/**
 * The streams of one connection: their records, identifier bookkeeping (§5.1.1), and the single place
 * where the stream state table (`stream-states.ts`) is applied.
 *
 * Closed streams are dropped from the map; `state()` still answers for them: an id at or below the
 * highest one used by its initiator and not in the map is closed (ids skipped over are implicitly
 * closed, §5.1.1). Small bounded sets remember recently closed and recently reset streams, so late
 * frames can be told apart from illegal ones.
 */
import { connectionError, type Http2Error, streamError, usageError } from './errors';
import { FlowControlWindow } from './flow-control';
import { type Direction, type StreamEvent, type StreamState, transition } from './stream-states';

const Window = FlowControlWindow;

export interface StreamRecord {
  readonly id: number;
  state: StreamState;
  /** What we may send (grown by the peer's WINDOW_UPDATE). */
  readonly send: FlowControlWindow;
  /** What we let the peer send (grown by our WINDOW_UPDATE). */
  readonly recv: FlowControlWindow;
  /** A request or final response has been received: the next block from the peer is trailers. */
  messageReceived: boolean;
  /** Server: a final (non-1xx) response went out: the next block we send is trailers. */
  finalSent: boolean;
  /** Client: the method we sent (a HEAD response announces a length but carries no content). */
  method: string | null;
  /** content-length of the message being received, when it announced one (RFC 9113 §8.1.1). */
  expectedLength: number | null;
  /** DATA octets received so far (payload only, without padding). */
  receivedLength: number;
}

export type StepResult = { readonly ok: true; readonly rec: StreamRecord; readonly closed: boolean } | { readonly ok: false; readonly error: Http2Error };

/** How many recent stream ids the bounded sets keep. */
const MEMORY = 256;

export class StreamRegistry {
  highestLocal = 0;
  highestRemote = 0;
  private readonly streams = new Map<number, StreamRecord>();
  private readonly closedRecently = new Set<number>();
  private readonly resetRecently = new Set<number>();
  /**
   * Active streams (open or half-closed, §5.1.2) by initiator, kept up to date on every state change:
   * the concurrency checks run for every new stream, and counting the map each time made opening
   * n streams cost O(n²).
   */
  private activeLocal = 0;
  private activeRemote = 0;

  constructor(
    private readonly isClient: boolean,
    /** Initial window sizes for new streams: the peer's and our SETTINGS_INITIAL_WINDOW_SIZE. */
    private readonly initialWindows: () => { send: number; recv: number },
  ) {}

  /** Streams with odd ids are the client's (§5.1.1). */
  isLocal(id: number): boolean {
    return (id % 2 === 1) === this.isClient;
  }

  state(id: number): StreamState {
    const rec = this.streams.get(id);
    if (rec) return rec.state;
    return id <= (this.isLocal(id) ? this.highestLocal : this.highestRemote) ? 'closed' : 'idle';
  }

  get(id: number): StreamRecord | undefined {
    return this.streams.get(id);
  }

  all(): StreamRecord[] {
    return [...this.streams.values()];
  }

  /** Streams counting toward MAX_CONCURRENT_STREAMS: open or half-closed (§5.1.2). */
  active(local: boolean): number {
    return local ? this.activeLocal : this.activeRemote;
  }

  /** Closed by a real close (not skipped over), recently enough to remember. */
  closedRecentlyOrReset(id: number): boolean {
    return this.closedRecently.has(id) || this.resetRecently.has(id);
  }

  wasResetLocally(id: number): boolean {
    return this.resetRecently.has(id);
  }

  /**
   * Applies one event. Send-side violations throw (API misuse); receive-side ones come back as the
   * error the RFC prescribes, for the connection to turn into RST_STREAM or GOAWAY.
   */
  step(id: number, ev: StreamEvent, direction: Direction): StepResult {
    const state = this.state(id);
    const t = transition(state, ev, direction);
    if (!t.ok) {
      const message = `${ev} ${direction === 'send' ? 'sent' : 'received'} on stream ${id} in state ${state} (RFC 9113 §5.1).`;
      if (t.side === 'local') throw usageError(t.code, message, id);
      return { ok: false, error: t.scope === 'connection' ? connectionError(t.code, message) : streamError(t.code, id, message) };
    }
    let rec = this.streams.get(id);
    if (!rec) {
      const windows = this.initialWindows();
      rec = {
        id,
        state,
        send: new Window(windows.send),
        recv: new Window(windows.recv),
        messageReceived: false,
        finalSent: false,
        method: null,
        expectedLength: null,
        receivedLength: 0,
      };
      // Self-loops on idle or closed (PRIORITY) create nothing.
      if (t.next === state) return { ok: true, rec, closed: false };
      this.streams.set(id, rec);
      if (this.isLocal(id)) this.highestLocal = Math.max(this.highestLocal, id);
      else this.highestRemote = Math.max(this.highestRemote, id);
    }
    const closed = t.next === 'closed' && rec.state !== 'closed';
    this.setState(rec, t.next);
    if (closed) this.forget(rec);
    return { ok: true, rec, closed };
  }

  /** Closes a stream outside the table (a stream error, or GOAWAY); returns whether it was open. */
  close(id: number, resetLocally: boolean): boolean {
    if (resetLocally) remember(this.resetRecently, id);
    const rec = this.streams.get(id);
    if (!rec) return false;
    this.setState(rec, 'closed');
    this.forget(rec);
    return true;
  }

  /**
   * GOAWAY received (RFC 9113 §6.8): closes our streams above `lastStreamId`, which the peer did not and
   * will not process; returns their ids.
   */
  closeUnprocessed(lastStreamId: number): number[] {
    const unprocessed = this.all().filter((rec) => this.isLocal(rec.id) && rec.id > lastStreamId);
    for (const rec of unprocessed) this.close(rec.id, false);
    return unprocessed.map((rec) => rec.id);
  }

  /** Marks an idle peer stream as used without opening it (refused before it started). */
  skipRemote(id: number): void {
    this.highestRemote = Math.max(this.highestRemote, id);
  }

  /** The one place a stream's state changes, so the active counts stay exact. */
  private setState(rec: StreamRecord, next: StreamState): void {
    const delta = (isActive(next) ? 1 : 0) - (isActive(rec.state) ? 1 : 0);
    if (delta !== 0) {
      if (this.isLocal(rec.id)) this.activeLocal += delta;
      else this.activeRemote += delta;
    }
    rec.state = next;
  }

  private forget(rec: StreamRecord): void {
    this.streams.delete(rec.id);
    remember(this.closedRecently, rec.id);
  }
}

const isActive = (state: StreamState): boolean => state === 'open' || state === 'half_closed_local' || state === 'half_closed_remote';

function remember(set: Set<number>, id: number): void {
  set.add(id);
  if (set.size > MEMORY) set.delete(set.values().next().value!);
}
