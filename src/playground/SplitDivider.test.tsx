// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import SplitDivider, { SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, splitAfterKey, splitAtPointer } from './SplitDivider';

describe('the split divider', () => {
  it('moves by small steps with the arrow keys, big ones with Shift, to the ends with Home and End', () => {
    expect(splitAfterKey(50, 'ArrowLeft', false)).toBe(48);
    expect(splitAfterKey(50, 'ArrowRight', false)).toBe(52);
    expect(splitAfterKey(50, 'ArrowRight', true)).toBe(60);
    expect(splitAfterKey(50, 'Home', false)).toBe(SPLIT_MIN);
    expect(splitAfterKey(50, 'End', false)).toBe(SPLIT_MAX);
    expect(splitAfterKey(70, 'Enter', false)).toBe(SPLIT_DEFAULT);
    expect(splitAfterKey(50, 'a', false)).toBeUndefined();
  });

  it('never leaves either side narrower than a quarter', () => {
    expect(splitAfterKey(SPLIT_MIN, 'ArrowLeft', true)).toBe(SPLIT_MIN);
    expect(splitAfterKey(74, 'ArrowRight', true)).toBe(SPLIT_MAX);
    expect(splitAtPointer(10, 0, 1000)).toBe(SPLIT_MIN);
    expect(splitAtPointer(900, 0, 1000)).toBe(SPLIT_MAX);
    expect(splitAtPointer(700, 100, 1000)).toBe(60);
  });

  it('is a focusable separator that says its position and moves with the keyboard', () => {
    function Harness() {
      const [value, setValue] = useState(50);
      return <SplitDivider value={value} onChange={setValue} controls="code" container={() => null} />;
    }
    const { getByRole } = render(<Harness />);
    const divider = getByRole('separator', { name: 'Resize the editor and the visualizer' });
    expect(divider.tabIndex).toBe(0);
    expect(divider.getAttribute('aria-orientation')).toBe('vertical');
    expect(divider.getAttribute('aria-valuenow')).toBe('50');
    fireEvent.keyDown(divider, { key: 'ArrowRight' });
    fireEvent.keyDown(divider, { key: 'ArrowRight', shiftKey: true });
    expect(divider.getAttribute('aria-valuenow')).toBe('62');
    expect(divider.getAttribute('aria-valuetext')).toBe('Editor 62% of the width');
    fireEvent.keyDown(divider, { key: 'Home' });
    expect(divider.getAttribute('aria-valuenow')).toBe(String(SPLIT_MIN));
  });
});
