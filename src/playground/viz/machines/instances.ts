/**
 * Which machine instances a recording holds (an HTTP/1 connection's roles, a connection's management, an
 * HTTP/2 stream, a QUIC stream's sending or receiving part, a query, a mutation) and the transitions each went through, with the table row of each.
 *
 * Wire engines trace the row that fired ('transition' events carry the row or rule id, HTTP/2 stream
 * transitions carry state, frame and direction). The query library's cache notifications carry the state
 * after each change but not the reducer action, so the row is recovered from the change itself: which of
 * the rows between the two (status, fetchStatus) pairs explains what else changed (data, failure count,
 * invalidation). A change no row explains (setState: reset, cancel's revert, hydration) has no row.
 */
import type { MutationSummary, QuerySummary, Recording, Source } from '../../recording/model';
import { MACHINES, quicRowId, quicStateId, type MachineDef, type MachineId } from './definitions';

export interface FiredRow {
  /** Step index (cursor) of the event. */
  readonly step: number;
  readonly from: string;
  readonly to: string;
  /** The table row, or undefined when none applies (an error, or a setState). */
  readonly row: string | undefined;
  /** What happened, in words, when there is no row. */
  readonly note?: string;
}

export interface Instance {
  /** Stable across the recording: used as the select's value. */
  readonly key: string;
  readonly machine: MachineId;
  readonly label: string;
  readonly initial: string;
  readonly transitions: readonly FiredRow[];
}

const stepIndex = (recording: Recording): Map<string, number> => {
  const out = new Map<string, number>();
  recording.steps.forEach((s, i) => out.set(`${s.sourceId}#${s.index}`, i));
  return out;
};

/** Every instance in the recording, with all its transitions (views cut them at the cursor). */
export function instancesOf(recording: Recording): Instance[] {
  const steps = stepIndex(recording);
  const out = new Map<string, { key: string; machine: MachineId; label: string; initial: string; transitions: FiredRow[] }>();
  const get = (key: string, machine: MachineId, label: string, initial = MACHINES[machine].initial) => {
    let inst = out.get(key);
    if (!inst) out.set(key, (inst = { key, machine, label, initial, transitions: [] }));
    return inst;
  };
  for (const source of recording.sources) {
    const stepOf = (index: number) => steps.get(`${source.id}#${index}`) ?? -1;
    if (source.kind === 'wire') wireInstances(source, stepOf, get);
    else queryInstances(source, stepOf, get);
  }
  return [...out.values()];
}

type Get = (key: string, machine: MachineId, label: string, initial?: string) => { transitions: FiredRow[] };

function wireInstances(source: Extract<Source, { kind: 'wire' }>, stepOf: (i: number) => number, get: Get): void {
  source.events.forEach((e, index) => {
    if (e.type === 'transition') {
      if (e.machine === 'client-connection') {
        get(
          `${source.id}/${e.connectionId}/client-connection`,
          'client-connection',
          `${source.label}: ${e.connectionId}, connection management`,
        ).transitions.push({
          step: stepOf(index),
          from: e.from,
          to: e.to,
          row: `${e.from}:${e.input}`,
        });
        return;
      }
      const m = /^http1-(client|server)$/.exec(e.machine);
      if (!m) return; // proxy modes have no table to draw yet
      const [role, from] = e.from.split(':') as [string, string];
      const to = e.to.split(':')[1]!;
      const machine: MachineId = role === 'client' ? 'http1-client-role' : 'http1-server-role';
      const inst = get(
        `${source.id}/${e.connectionId}/${e.machine}/${role}`,
        machine,
        `${source.label}: ${e.connectionId}, ${role === m[1] ? `the ${role}'s state` : `the ${role}'s state as the ${m[1]} tracks it`} (${m[1]}'s engine)`,
      );
      // Event rows are named by their id; settle rules by the rule id, one row per source state.
      const isEventRow = MACHINES[machine].rows.some((r) => r.id === e.input);
      const row = e.input.startsWith('error') ? undefined : isEventRow ? e.input : `${e.input}@${from}`;
      inst.transitions.push({ step: stepOf(index), from, to, row, ...(row === undefined ? { note: e.input } : {}) });
      return;
    }
    if (e.type === 'h2-stream-transition') {
      get(
        `${source.id}/${e.connectionId}/${e.side}/${e.streamId}`,
        'h2-stream',
        `${source.label}: ${e.connectionId}, ${e.side}, stream ${e.streamId}`,
      ).transitions.push({
        step: stepOf(index),
        from: e.from,
        to: e.to,
        row: `${e.from}:${e.input}:${e.direction}`,
      });
    }
    if (e.type === 'quic-stream-transition') {
      const machine: MachineId = e.part === 'send' ? 'quic-stream-send' : 'quic-stream-recv';
      const label = `${source.label}: ${e.connectionId}, ${e.side}, stream ${e.streamId} (${e.part === 'send' ? 'sending' : 'receiving'} part)`;
      get(`${source.id}/${e.connectionId}/${e.side}/${e.streamId}/${e.part}`, machine, label).transitions.push({
        step: stepOf(index),
        from: quicStateId(e.from),
        to: quicStateId(e.to),
        row: quicRowId(e.from, e.input),
      });
    }
  });
}

const qState = (q: QuerySummary) => `${q.status}/${q.fetchStatus}`;

/** The query row that explains the change from `p` to `n`, if one does. */
export function inferQueryRow(def: MachineDef, p: QuerySummary, n: QuerySummary): string | undefined {
  const from = qState(p);
  const to = qState(n);
  const candidates = def.rows.filter((r) => r.from === from && r.to === to);
  if (candidates.length <= 1) return candidates[0]?.id;
  const action = (r: { id: string }) => r.id.split(':')[1];
  const pick = (a: string, manual?: boolean) => candidates.find((r) => action(r) === a && (manual === undefined || r.id.endsWith(':manual') === manual))?.id;
  if (n.dataUpdateCount > p.dataUpdateCount) return pick('success', n.fetchStatus !== 'idle' || p.fetchStatus === 'idle') ?? pick('success');
  if (!p.isInvalidated && n.isInvalidated && from === to) return pick('invalidate');
  if (n.fetchFailureCount !== p.fetchFailureCount && from === to) return pick('failed');
  return candidates[0]!.id;
}

function mutationState(m: MutationSummary): string {
  return m.status === 'pending' && m.isPaused ? 'paused' : m.status;
}

function queryInstances(source: Extract<Source, { kind: 'query' }>, stepOf: (i: number) => number, get: Get): void {
  const lastQuery = new Map<string, QuerySummary>();
  const lastMutation = new Map<number, MutationSummary>();
  source.events.forEach((e, index) => {
    if (e.kind === 'query') {
      const q = e.query;
      const key = `${source.id}/query/${q.queryHash}`;
      const prev = lastQuery.get(q.queryHash);
      const inst = get(key, 'query', `${source.label}: query ${q.queryHash}`, qState(q));
      if (e.action === 'removed') {
        lastQuery.delete(q.queryHash);
        return;
      }
      lastQuery.set(q.queryHash, q);
      if (
        !prev ||
        (qState(prev) === qState(q) &&
          prev.isInvalidated === q.isInvalidated &&
          prev.fetchFailureCount === q.fetchFailureCount &&
          prev.dataUpdateCount === q.dataUpdateCount)
      )
        return;
      const row = inferQueryRow(MACHINES.query, prev, q);
      inst.transitions.push({
        step: stepOf(index),
        from: qState(prev),
        to: qState(q),
        row,
        ...(row ? {} : { note: 'setState (reset, cancel or hydrate): not a table row' }),
      });
    } else if (e.kind === 'mutation') {
      const m = e.mutation;
      const prev = lastMutation.get(m.mutationId);
      const inst = get(`${source.id}/mutation/${m.mutationId}`, 'mutation', `${source.label}: mutation ${m.mutationId}`, 'idle');
      if (e.action === 'removed') return;
      lastMutation.set(m.mutationId, m);
      const from = prev ? mutationState(prev) : 'idle';
      const to = mutationState(m);
      if (prev && from === to && prev.failureCount === m.failureCount) {
        // Same status, no failure: onMutate's context (a pending -> pending row) or an observer update.
        if (e.action !== 'updated') return;
      }
      if (!prev && to === 'idle') return;
      const candidates = MACHINES.mutation.rows.filter((r) => r.from === from && r.to === to);
      const row =
        candidates.length > 1 && prev && prev.failureCount !== m.failureCount
          ? candidates.find((r) => r.id.includes(':failed'))?.id
          : (candidates.find((r) => !r.id.includes(':failed'))?.id ?? candidates[0]?.id);
      inst.transitions.push({ step: stepOf(index), from, to, row });
    }
  });
}

/** The instance's transitions up to and including `cursor`. */
export const transitionsAt = (inst: Instance, cursor: number): FiredRow[] => inst.transitions.filter((t) => t.step >= 0 && t.step <= cursor);

/**
 * Per-recording lookups for the machines view, so a cursor move costs binary searches instead of filtering
 * every instance's transitions (which grew with the cursor while scrubbing a 1,000-event trace).
 */
export interface InstanceIndex {
  /** Per instance key: its transitions that have a step, in step order. */
  readonly fired: ReadonlyMap<string, readonly FiredRow[]>;
  /** Per instance key, per row id: the steps at which that row fired, ascending. */
  readonly rowSteps: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>;
  /** Per step: the instance with the latest transition at or before it (the first listed on a tie). */
  readonly followAt: readonly (Instance | undefined)[];
}

export function indexInstances(instances: readonly Instance[], stepCount: number): InstanceIndex {
  const fired = new Map<string, FiredRow[]>();
  const rowSteps = new Map<string, Map<string, number[]>>();
  // owner[step]: the first instance (in list order) with a transition at exactly that step.
  const owner: (Instance | undefined)[] = new Array<Instance | undefined>(stepCount).fill(undefined);
  for (const inst of instances) {
    const list = inst.transitions.filter((t) => t.step >= 0).sort((a, b) => a.step - b.step);
    fired.set(inst.key, list);
    const rows = new Map<string, number[]>();
    for (const t of list) {
      if (t.step < stepCount && owner[t.step] === undefined) owner[t.step] = inst;
      if (t.row === undefined) continue;
      let steps = rows.get(t.row);
      if (!steps) rows.set(t.row, (steps = []));
      steps.push(t.step);
    }
    rowSteps.set(inst.key, rows);
  }
  const followAt: (Instance | undefined)[] = [];
  let latest: Instance | undefined;
  for (let i = 0; i < stepCount; i++) followAt.push((latest = owner[i] ?? latest));
  return { fired, rowSteps, followAt };
}

/** How many of `steps` (ascending) are at or before `cursor`. */
export function countUpTo(steps: readonly number[], cursor: number): number {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (steps[mid]! <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of `rows` (in step order) fired at or before `cursor`. */
export function firedCountAt(rows: readonly FiredRow[], cursor: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.step <= cursor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
