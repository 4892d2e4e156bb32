// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { Lane } from './lanes';
import { sameLaneDrawing, type TimelineLaneProps } from './TimelineLane';

const lane = (over: Partial<Lane> = {}): Lane => ({
  id: '["a"]',
  label: "['a']",
  spans: [
    { kind: 'fetch', from: 0, to: 40, open: false, event: 1, label: 'fetch' },
    { kind: 'attempt', from: 0, to: 40, open: false, event: 1, label: 'attempt 1' },
    { kind: 'attempt', from: 60, to: 90, open: true, event: 5, label: 'attempt 2' },
  ],
  marks: [{ kind: 'success', at: 40, event: 3 }],
  ...over,
});
const go = () => undefined;
const props = (over: Partial<TimelineLaneProps> = {}): TimelineLaneProps => ({
  lane: lane(),
  y: 39,
  start: 0,
  end: 100,
  left: 110,
  right: 584,
  current: -1,
  onGo: go,
  ...over,
});

describe('sameLaneDrawing (when a timeline lane may skip re-rendering)', () => {
  it('a lane rebuilt with the same items draws the same', () => {
    expect(sameLaneDrawing(props(), props())).toBe(true);
  });

  it('a running span that grew, a new mark, or another scale draws differently', () => {
    const grown = lane();
    const spans = [...grown.spans];
    spans[2] = { ...spans[2]!, to: 95 };
    expect(sameLaneDrawing(props(), props({ lane: { ...grown, spans } }))).toBe(false);
    expect(sameLaneDrawing(props(), props({ lane: lane({ marks: [...lane().marks, { kind: 'stale', at: 70, event: 7 }] }) }))).toBe(false);
    expect(sameLaneDrawing(props(), props({ end: 120 }))).toBe(false);
    expect(sameLaneDrawing(props(), props({ y: 73 }))).toBe(false);
  });

  it('the cursor event matters only when it enters or leaves this lane', () => {
    expect(sameLaneDrawing(props({ current: 10 }), props({ current: 11 }))).toBe(true);
    expect(sameLaneDrawing(props({ current: 10 }), props({ current: 3 }))).toBe(false);
    expect(sameLaneDrawing(props({ current: 5 }), props({ current: 12 }))).toBe(false);
  });
});
