import { describe, expect, it } from 'vitest';
import { FifoQueue, frozenFields, h2Fields, regularFields } from './common';

describe('FifoQueue', () => {
  it('hands items out in arrival order, with positions counted from the front', () => {
    const q = new FifoQueue<string>();
    expect(q.shift()).toBeUndefined();
    for (const s of ['a', 'b', 'c', 'd']) q.push(s);
    expect(q.shift()).toBe('a');
    expect(q.length).toBe(3);
    expect([q.at(0), q.at(2), q.at(3), q.at(-1)]).toEqual(['b', 'd', undefined, undefined]);
    expect(q.remove('c')).toBe(true);
    expect(q.remove('a')).toBe(false); // already handed out
    q.push('e');
    expect(q.drain()).toEqual(['b', 'd', 'e']);
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('stays a queue across the compaction of a long consumed front', () => {
    const q = new FifoQueue<number>();
    const model: number[] = [];
    let next = 0;
    // Mostly pushes at first, then mostly shifts: the front passes 1,024 consumed slots several times.
    for (let round = 0; round < 6000; round++) {
      const push = round < 3000 ? round % 4 !== 3 : round % 4 === 0;
      if (push) {
        q.push(next);
        model.push(next++);
      } else {
        expect(q.shift()).toBe(model.shift());
      }
      expect(q.length).toBe(model.length);
    }
    expect(q.at(0)).toBe(model[0]);
    expect(q.at(model.length - 1)).toBe(model.at(-1));
    expect(q.drain()).toEqual(model);
  });
});

describe('field lists for HTTP/2', () => {
  it('lower-cases names and drops connection-specific fields and those Connection names', () => {
    const out = h2Fields([
      { name: 'Accept', value: '*/*' },
      { name: 'Connection', value: 'keep-alive, X-Hop' },
      { name: 'X-Hop', value: '1' },
      { name: 'Host', value: 'a.example' },
      { name: 'TE', value: 'trailers' },
      { name: 'X-Kept', value: '2' },
    ]);
    expect(out).toEqual([
      { name: 'accept', value: '*/*' },
      { name: 'x-kept', value: '2' },
    ]);
  });

  it('frozenFields freezes the list and every entry, in place', () => {
    const list = [
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ];
    expect(frozenFields(list)).toBe(list);
    expect(Object.isFrozen(list) && list.every((f) => Object.isFrozen(f))).toBe(true);
  });
});

describe('regularFields', () => {
  it('drops pseudo-headers wherever they are, keeps the rest in order, after an optional first field', () => {
    const host = { name: 'host', value: 'a.example' };
    const list = [
      { name: ':method', value: 'GET' },
      { name: ':path', value: '/' },
      { name: 'accept', value: '*/*' },
      { name: ':late', value: 'x' }, // out of place (RFC 9113 §8.3); the engine refuses it, this still drops it
      { name: 'x-b', value: '2' },
    ];
    expect(regularFields(list).map((f) => f.name)).toEqual(['accept', 'x-b']);
    expect(regularFields(list, host)).toEqual([host, list[2], list[4]]);
    expect(regularFields(list)[0]).toBe(list[2]); // the entries themselves, not copies
    expect(regularFields([{ name: ':status', value: '204' }])).toEqual([]);
  });
});
