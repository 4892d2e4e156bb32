import { describe, expect, it } from 'vitest';
import { sameFieldName } from '../data/headers';
import { fieldTokens, fieldValues, responseEvent } from './events';

describe('event builders check every field, whatever they saw before', () => {
  it('refuses a bad value under a name, and a bad name with a value, each already seen valid', () => {
    const ok = responseEvent({ status: 200, headers: [{ name: 'X-Seen', value: 'a b' }] });
    expect(ok.headers).toEqual([{ name: 'X-Seen', value: 'a b' }]);
    expect(() => responseEvent({ status: 200, headers: [{ name: 'X-Seen', value: 'a\r\nInjected: 1' }] })).toThrow(
      expect.objectContaining({ code: 'invalid-field-value' }),
    );
    // 'a b' is a valid value, never a valid name (SP is not a tchar, RFC 9110 §5.6.2).
    expect(() => responseEvent({ status: 200, headers: [{ name: 'a b', value: 'X-Seen' }] })).toThrow(expect.objectContaining({ code: 'invalid-field-name' }));
  });

  it('keeps checking once its memory of valid fields fills and empties', () => {
    for (let i = 0; i < 600; i++) responseEvent({ status: 200, headers: [{ name: `X-${i}`, value: `v${i}` }] });
    expect(() => responseEvent({ status: 200, headers: [{ name: 'X-1', value: ' v1' }] })).toThrow(expect.objectContaining({ code: 'invalid-field-value' }));
  });

  it('copies the fields, so changing the caller objects later does not change the event', () => {
    const field = { name: 'X-A', value: '1' };
    const list = [field];
    const ev = responseEvent({ status: 200, headers: list });
    field.value = '2';
    list.push({ name: 'X-B', value: '3' });
    expect(ev.headers).toEqual([{ name: 'X-A', value: '1' }]);
    expect(Object.isFrozen(ev) && Object.isFrozen(ev.headers)).toBe(true);
  });
});

describe('field names compare without regard to ASCII case (RFC 9110 §5.1)', () => {
  it('matches any casing of a name, and nothing of another name or length', () => {
    expect(sameFieldName('Content-Length', 'content-length')).toBe(true);
    expect(sameFieldName('CONTENT-LENGTH', 'content-length')).toBe(true);
    expect(sameFieldName('User-Agent', 'connection')).toBe(false);
    expect(sameFieldName('Connection2', 'connection')).toBe(false);
    // Only A-Z fold: the Kelvin sign lowercases to 'k' in Unicode, and is not a field-name character at all.
    expect(sameFieldName('\u212Aeep-Alive', 'keep-alive')).toBe(false);
    // '@' (0x40) and '[' (0x5B) sit just outside A-Z and must not fold onto '`' and '{'.
    expect(sameFieldName('@', '`')).toBe(false);
    expect(sameFieldName('[', '{')).toBe(false);
  });

  it('collects the values and list elements of every line of a field, in order', () => {
    const headers = [
      { name: 'Connection', value: 'Keep-Alive, Upgrade' },
      { name: 'X', value: '1' },
      { name: 'connection', value: ' close ' },
    ];
    expect(fieldValues(headers, 'Connection')).toEqual(['Keep-Alive, Upgrade', ' close ']);
    expect(fieldTokens(headers, 'connection')).toEqual(['keep-alive', 'upgrade', 'close']);
    expect(fieldValues(headers, 'upgrade')).toEqual([]);
    expect(fieldTokens(headers, 'upgrade')).toEqual([]);
  });
});
