// @vitest-environment jsdom
/**
 * Room for many streams (issue #27): the rapid-reset snippet opens 52 streams. The lanes start compact, and
 * the scroll box's sideways target for the chosen frame puts that frame's lane in view beside the sticky #
 * and ms columns, at every step of the run.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../../recording/model';
import { recordSnippet } from '../run-snippet';
import FrameInspector from './FrameInspector';
import { COMPACT_LANE_REM, frameAtCursor, frameIndex, LANE_FIXED_REM, LANE_REM, laneOf, laneScrollLeft, laneStreams, visibleFrameCount } from './model';

let recording: Recording;
beforeAll(async () => {
  ({ recording } = await recordSnippet('http2-attack-rapid-reset.ts'));
}, 120_000);
afterEach(cleanup);

const REM = 16;

describe('laneScrollLeft', () => {
  const lane = 100;
  const fixed = 120;
  it('leaves the box alone while the lane is wholly in view beside the fixed columns', () => {
    expect(laneScrollLeft(2, lane, fixed, { left: 0, width: 700, content: 5000 })).toBe(0);
    expect(laneScrollLeft(10, lane, fixed, { left: 900, width: 700, content: 5000 })).toBe(900);
  });
  it('centres a lane that is off to the right or hidden under the fixed columns, within the content', () => {
    // Lane 20 starts at 2,120 px: centred in the 580 px beside the fixed columns.
    expect(laneScrollLeft(20, lane, fixed, { left: 0, width: 700, content: 5000 })).toBe(2120 - 120 - 240);
    // Lane 3 (420-520 px) is under the fixed columns (400-520) when the box stands at 400: it scrolls back.
    const back = laneScrollLeft(3, lane, fixed, { left: 400, width: 700, content: 5000 });
    expect(420 >= back + fixed && 520 <= back + 700).toBe(true);
    // The last lane: no further than the content's end.
    expect(laneScrollLeft(48, lane, fixed, { left: 0, width: 700, content: 5020 })).toBe(5020 - 700);
    expect(laneScrollLeft(0, lane, fixed, { left: 2000, width: 700, content: 5000 })).toBe(0);
  });
});

describe('FrameInspector on rapid reset', () => {
  it('has dozens of streams, starts compact with the finished ones in one lane, and can be widened', () => {
    const last = recording.steps.length - 1;
    const at = frameAtCursor(recording, last)!;
    const lane = frameIndex(recording).byEndpoint.get(at.key)!;
    expect(lane.streams.length).toBeGreaterThan(40);
    render(<FrameInspector recording={recording} cursor={last} />);
    const compact = screen.getByRole('checkbox', { name: 'Compact lanes' }) as HTMLInputElement;
    expect(compact.checked).toBe(true);
    const table = screen.getByRole('table');
    const heads = () => [...table.querySelectorAll('thead th.rt-fi-lane')].map((th) => th.getAttribute('data-stream'));
    // Stream 0, the finished streams, and the few still open: a handful of lanes, not one per stream.
    expect(heads().slice(0, 2)).toEqual(['0', 'finished']);
    expect(heads().length).toBeLessThan(12);
    expect(table.style.width).toBe(`${LANE_FIXED_REM + heads().length * COMPACT_LANE_REM}rem`);
    // A finished stream's frame names its stream.
    expect(within(table).getAllByRole('button', { name: /^(sent|received) +s\d+ (HEADERS|RST_STREAM)/ }).length).toBeGreaterThan(0);
    fireEvent.click(compact);
    expect(heads().length).toBe(lane.streams.length);
    expect(table.style.width).toBe(`${LANE_FIXED_REM + lane.streams.length * LANE_REM}rem`);
    // The bar names where the chosen frame is.
    expect(screen.getByTestId('frames-where').textContent).toMatch(/^Stream \d+, lane \d+ of \d+$|^Stream 0 \(connection\), lane 1 of \d+$/);
  });

  it('at every step, the scroll target puts the chosen frame lane in view of a phone-wide and a desktop box', () => {
    const index = frameIndex(recording);
    let checked = 0;
    for (let cursor = 0; cursor < recording.steps.length; cursor += 7) {
      const at = frameAtCursor(recording, cursor);
      if (!at) continue;
      const lane = index.byEndpoint.get(at.key)!;
      const count = visibleFrameCount(lane, cursor);
      const frame = lane.frames.find((f) => f.index === at.index)!;
      for (const [compact, laneRem] of [
        [true, COMPACT_LANE_REM],
        [false, LANE_REM],
      ] as const) {
        const streams = laneStreams(lane, count, compact);
        const pos = laneOf(streams, frame.event.streamId);
        expect(pos).toBeGreaterThanOrEqual(0);
        if (!compact) expect(streams[pos]).toBe(frame.event.streamId);
        checkInView(pos, streams.length, laneRem);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});

function checkInView(pos: number, lanes: number, laneRem: number) {
  for (const width of [330, 900]) {
    const laneW = laneRem * REM;
    const fixed = LANE_FIXED_REM * REM;
    const content = fixed + lanes * laneW;
    for (const from of [0, content / 2]) {
      const left = laneScrollLeft(pos, laneW, fixed, { left: Math.min(from, Math.max(0, content - width)), width, content });
      const start = fixed + pos * laneW;
      expect(start).toBeGreaterThanOrEqual(left + fixed - 0.5);
      // A lane wider than the room beside the fixed columns (a full-width lane on a phone) starts at their edge.
      if (laneW <= width - fixed) expect(start + laneW).toBeLessThanOrEqual(left + width + 0.5);
      else expect(start).toBeCloseTo(left + fixed, 0);
    }
  }
}

describe('FrameInspector on rapid reset, the selected row', () => {
  it('the selected row names the stream whose lane holds it', () => {
    const last = recording.steps.length - 1;
    render(<FrameInspector recording={recording} cursor={last} />);
    const row = screen.getByRole('table').querySelector('tr[aria-current="true"]')!;
    const cells = [...row.children];
    // Column of the chosen frame's cell, counting the spans before it; the header in that column names its stream.
    let col = 0;
    for (const c of cells) {
      if (c.querySelector('button[aria-pressed="true"]')) break;
      col += Number(c.getAttribute('colspan') ?? 1);
    }
    const head = within(screen.getByRole('table')).getAllByRole('columnheader')[col]!;
    const where = screen.getByTestId('frames-where').textContent!;
    if (head.getAttribute('data-stream') === 'finished') {
      // In the finished streams' lane, the frame itself names its stream, as the bar does.
      const stream = /^Stream (\d+) \(finished\)/.exec(where)![1];
      expect(row.querySelector('button[aria-pressed="true"]')!.textContent).toContain(`s${stream} `);
    } else expect(where).toContain(head.textContent!.replace(' (connection)', ''));
  });
});
