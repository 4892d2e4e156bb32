/**
 * The event timeline's geometry, from instrumentation events: one lane per query or mutation, with
 *   fetch     from fetchStart to fetchEnd (the whole call, retries included);
 *   attempt   one run of the query function: from the fetch start, a retry timer firing or a continue,
 *             to the failure (the 'retry' event), success, error or the fetch's end;
 *   backoff   the wait before a retry: from the failure to the retry's dueAt (drawn as a gap);
 *   paused    from 'pause' (offline, unfocused, or waiting for a mutation scope) to 'continue';
 * and point marks for success, error, invalidation, staleness, cancel, giving up and gc.
 * Spans still open at the end of the events run to `end` and say so (`open`).
 */
import type { InstrumentationSubject } from 'roundtrip/query';
import type { QueryVizEvent } from '../../recording/model';
import { formatMs, formatSubject } from './describe';

export type SpanKind = 'fetch' | 'attempt' | 'backoff' | 'paused';
export type MarkKind = 'success' | 'error' | 'set' | 'invalidate' | 'stale' | 'cancel' | 'giveUp' | 'gc';

export interface Span {
  readonly kind: SpanKind;
  readonly from: number;
  readonly to: number;
  /** Still running at the end of the events. */
  readonly open: boolean;
  /** The event that opened it (index in the source's events). */
  readonly event: number;
  /** For backoff: 'retry 2 of 3 in 2,000 ms'; for attempts: 'attempt 2'. */
  readonly label: string;
}

export interface Mark {
  readonly kind: MarkKind;
  readonly at: number;
  readonly event: number;
}

export interface Lane {
  /** queryHash, or 'mutation #id'. */
  readonly id: string;
  readonly label: string;
  readonly spans: readonly Span[];
  readonly marks: readonly Mark[];
}

export interface Lanes {
  readonly lanes: readonly Lane[];
  readonly start: number;
  readonly end: number;
}

interface Open {
  kind: SpanKind;
  from: number;
  event: number;
  label: string;
}

interface Building {
  id: string;
  label: string;
  spans: Span[];
  marks: Mark[];
  fetch?: Open;
  attempt?: Open;
  paused?: Open;
  attempts: number;
}

const laneId = (s: InstrumentationSubject) => (s.kind === 'query' ? s.queryHash : `mutation #${s.mutationId}`);

/** Lanes for `events` (one client's events, as of the cursor); `end` extends open spans (the time "now"). */
export function buildLanes(events: readonly QueryVizEvent[], end?: number): Lanes {
  const byId = new Map<string, Building>();
  let start = Infinity;
  let last = -Infinity;
  const close = (lane: Building, slot: 'fetch' | 'attempt' | 'paused', at: number) => {
    const open = lane[slot];
    if (!open) return;
    lane.spans.push({ kind: open.kind, from: open.from, to: Math.max(at, open.from), open: false, event: open.event, label: open.label });
    lane[slot] = undefined;
  };
  const startAttempt = (lane: Building, at: number, event: number) => {
    lane.attempts += 1;
    lane.attempt = { kind: 'attempt', from: at, event, label: `attempt ${lane.attempts}` };
  };

  events.forEach((v, index) => {
    start = Math.min(start, v.at);
    last = Math.max(last, v.at);
    if (v.kind !== 'instrumentation') return;
    const e = v.event;
    const id = laneId(e.subject);
    let lane = byId.get(id);
    const mark = (kind: MarkKind) => lane!.marks.push({ kind, at: v.at, event: index });
    if (!lane) {
      // Lanes start with the first thing worth drawing, not with the bookkeeping of a new query's gc timer.
      if (e.type === 'timerScheduled' || e.type === 'gcScheduled' || e.type === 'observerAdded') return;
      lane = { id, label: formatSubject(e.subject), spans: [], marks: [], attempts: 0 };
      byId.set(id, lane);
    }
    switch (e.type) {
      case 'fetchStart':
        close(lane, 'attempt', v.at);
        close(lane, 'paused', v.at);
        close(lane, 'fetch', v.at);
        lane.attempts = 0;
        lane.fetch = { kind: 'fetch', from: v.at, event: index, label: 'fetch' };
        if (e.fetchStatus === 'paused') lane.paused = { kind: 'paused', from: v.at, event: index, label: 'paused' };
        else startAttempt(lane, v.at, index);
        break;
      case 'retry':
        close(lane, 'attempt', v.at);
        lane.spans.push({
          kind: 'backoff',
          from: v.at,
          to: e.dueAt,
          open: false,
          event: index,
          label: `retry ${e.attempt}${e.notes?.retryLimit !== undefined ? ` of ${e.notes.retryLimit}` : ''} in ${formatMs(e.delay)}`,
        });
        break;
      case 'timerFired':
        if (e.timer.timer === 'retry' && lane.fetch) startAttempt(lane, v.at, index);
        else if (e.timer.timer === 'staleTime') mark('stale');
        break;
      case 'pause':
        // The retryer pauses between attempts: an attempt that "started" this instant never ran.
        if (lane.attempt && lane.attempt.from === v.at) {
          lane.attempt = undefined;
          lane.attempts -= 1;
        } else close(lane, 'attempt', v.at);
        lane.paused ??= { kind: 'paused', from: v.at, event: index, label: `paused (${e.reason})` };
        break;
      case 'continue':
        close(lane, 'paused', v.at);
        if (lane.fetch && !lane.attempt) startAttempt(lane, v.at, index);
        break;
      case 'success':
        close(lane, 'attempt', v.at);
        mark(e.manual ? 'set' : 'success');
        break;
      case 'error':
        close(lane, 'attempt', v.at);
        mark('error');
        break;
      case 'cancel':
        mark('cancel');
        break;
      case 'retryGiveUp':
        mark('giveUp');
        break;
      case 'fetchEnd':
        close(lane, 'attempt', v.at);
        close(lane, 'paused', v.at);
        close(lane, 'fetch', v.at);
        break;
      case 'invalidate':
        mark('invalidate');
        break;
      case 'gcFired':
        if (e.removed) mark('gc');
        break;
      default:
        break;
    }
  });

  if (start === Infinity) return { lanes: [], start: 0, end: 0 };
  const until = Math.max(end ?? last, last);
  const lanes = [...byId.values()].map((lane): Lane => {
    const spans = [...lane.spans];
    for (const open of [lane.fetch, lane.attempt, lane.paused]) {
      if (open) spans.push({ kind: open.kind, from: open.from, to: until, open: true, event: open.event, label: open.label });
    }
    return { id: lane.id, label: lane.label, spans, marks: lane.marks };
  });
  return { lanes, start, end: Math.max(until, start + 1) };
}

/** Round tick spacing for an axis covering `span` ms with about `target` ticks. */
export function tickStep(span: number, target = 6): number {
  const raw = Math.max(span, 1) / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
