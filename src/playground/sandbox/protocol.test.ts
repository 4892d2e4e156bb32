import { describe, expect, it } from 'vitest';
import { parseDevtoolsAction, parseHostMessage, parseSandboxMessage } from './protocol';

describe('visualizer messages (sandbox -> host)', () => {
  it('accepts a source announcement and keeps only scalar options', () => {
    const source = { id: 'sim-1', kind: 'wire', label: 'HTTP/2 · 100 ms RTT', options: { rtt: 100, tls: '1.3', keepAlive: true, bandwidth: null } };
    expect(parseSandboxMessage({ v: 1, type: 'viz-source', runId: 3, source })).toEqual({ v: 1, type: 'viz-source', runId: 3, source });
    const base = { v: 1, type: 'viz-source', runId: 3 };
    expect(parseSandboxMessage({ ...base, source: { ...source, kind: 'dom' } })).toBeNull();
    expect(parseSandboxMessage({ ...base, source: { ...source, id: '../x' } })).toBeNull();
    expect(parseSandboxMessage({ ...base, source: { ...source, label: 5 } })).toBeNull();
    expect(parseSandboxMessage({ ...base, source: { ...source, options: { nested: { a: 1 } } } })).toBeNull();
    expect(parseSandboxMessage({ ...base, source: { ...source, options: [1] } })).toBeNull();
    expect(parseSandboxMessage({ v: 1, type: 'viz-source', source })).toBeNull();
  });

  it('cuts an overlong label', () => {
    const msg = parseSandboxMessage({ v: 1, type: 'viz-source', runId: 1, source: { id: 'client-1', kind: 'query', label: 'x'.repeat(500) } });
    expect(msg?.type === 'viz-source' && msg.source.label.length).toBe(200);
  });

  it('accepts event batches whose events all have a finite time', () => {
    const events = [
      { type: 'request-started', seq: 1, at: 0 },
      { kind: 'query', at: 1_700_000_000_000 },
    ];
    expect(parseSandboxMessage({ v: 1, type: 'viz-events', runId: 1, sourceId: 'sim-1', events })).toEqual({
      v: 1,
      type: 'viz-events',
      runId: 1,
      sourceId: 'sim-1',
      events,
    });
    const bad = (events: unknown) => parseSandboxMessage({ v: 1, type: 'viz-events', runId: 1, sourceId: 'sim-1', events });
    expect(bad('nope')).toBeNull();
    expect(bad([{ at: Number.NaN }])).toBeNull();
    expect(bad([{ at: '1' }])).toBeNull();
    expect(bad([null])).toBeNull();
    expect(bad([[1]])).toBeNull();
    expect(bad(new Array(50_001).fill({ at: 1 }))).toBeNull();
    expect(parseSandboxMessage({ v: 1, type: 'viz-events', runId: 1, sourceId: 'SIM 1', events: [] })).toBeNull();
  });
});

describe('devtools messages (host -> sandbox)', () => {
  it('accepts each action the devtools send', () => {
    for (const type of ['refetch', 'invalidate', 'reset', 'remove', 'trigger-loading', 'trigger-error', 'restore'])
      expect(parseDevtoolsAction({ type, queryHash: '["todos"]' })).toEqual({ type, queryHash: '["todos"]' });
    expect(parseDevtoolsAction({ type: 'set-online', online: false })).toEqual({ type: 'set-online', online: false });
    expect(parseDevtoolsAction({ type: 'set-focused', focused: true })).toEqual({ type: 'set-focused', focused: true });
  });

  it('rejects anything else', () => {
    expect(parseDevtoolsAction({ type: 'refetch' })).toBeNull();
    expect(parseDevtoolsAction({ type: 'set-online', online: 'no' })).toBeNull();
    expect(parseDevtoolsAction({ type: 'eval', code: '1' })).toBeNull();
    expect(parseDevtoolsAction(null)).toBeNull();
  });

  it('wraps an action with its run and source', () => {
    const msg = { v: 1, type: 'devtools', runId: 2, sourceId: 'client-1', action: { type: 'invalidate', queryHash: '["a"]' } };
    expect(parseHostMessage(msg)).toEqual(msg);
    expect(parseHostMessage({ ...msg, action: { type: 'bogus' } })).toBeNull();
    expect(parseHostMessage({ ...msg, sourceId: 7 })).toBeNull();
    expect(parseHostMessage({ ...msg, runId: '2' })).toBeNull();
  });
});

describe('run messages', () => {
  it('carry precompiled code when the host has it, and drop a js field that is not a string', () => {
    const run = { v: 1, type: 'run', runId: 1, code: 'let a: number = 1;' };
    expect(parseHostMessage({ ...run, js: 'let a = 1;' })).toEqual({ ...run, js: 'let a = 1;' });
    expect(parseHostMessage({ ...run, js: 42 })).toEqual(run);
    expect(parseHostMessage(run)).toEqual(run);
  });
});

describe('console messages (sandbox -> host)', () => {
  it('carry the snippet position of an uncaught error, and drop one that is not a position', () => {
    const line = { v: 1, type: 'console', runId: 4, level: 'error', text: 'Uncaught (in promise) TypeError: Failed to fetch' };
    expect(parseSandboxMessage({ ...line, position: { line: 3, column: 22 } })).toEqual({ ...line, position: { line: 3, column: 22 } });
    expect(parseSandboxMessage({ ...line, position: { line: '3', column: 22 } })).toEqual(line);
    expect(parseSandboxMessage(line)).toEqual(line);
    expect(parseSandboxMessage({ ...line, level: 'fatal' })).toBeNull();
  });
});
