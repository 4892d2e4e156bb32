import { describe, expect, it } from 'vitest';
import { firstViewFor, VIEWS } from './views';

describe('firstViewFor', () => {
  it('names the view a run opens on, from what the snippet imports', () => {
    expect(firstViewFor(['roundtrip/wire'])?.id).toBe('sequence');
    expect(firstViewFor(['roundtrip/query'])?.id).toBe('machines');
    expect(firstViewFor(['roundtrip/react', 'react-dom/client'])?.id).toBe('machines');
    // A simulation's views come first in tab order, so they open even when query clients record too.
    expect(firstViewFor(['roundtrip/query', 'roundtrip/wire'])?.id).toBe('sequence');
    expect(firstViewFor(['roundtrip/playground'])).toBeUndefined();
    expect(firstViewFor([])).toBeUndefined();
    // It is one of the views, whose code it loads.
    expect(VIEWS).toContain(firstViewFor(['roundtrip/wire']));
  });
});
