/**
 * The connection table's notes are rendered on the Connections page, so they must state RFC 9112's retry
 * rules at the right strength: unanswered pipelined requests SHOULD be retried (§9.3.2), and an automatic
 * retry is allowed only for idempotent requests (§9.3.1). Neither is a "must".
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_CONNECTION_TABLE } from './connection-table';

describe('CLIENT_CONNECTION_TABLE notes', () => {
  const retryRows = CLIENT_CONNECTION_TABLE.filter((r) => /retr/i.test(r.note));

  it('state the pipelined retry rule as a SHOULD limited to idempotent requests', () => {
    expect(retryRows.map((r) => `${r.from} ${r.input}`)).toEqual(expect.arrayContaining(['pipelined response-close', 'pipelined peer-closed']));
    for (const r of retryRows) {
      expect(r.note, r.input).not.toMatch(/\bmust\b/i);
      expect(r.note, r.input).toMatch(/should/i);
      expect(r.note, r.input).toMatch(/idempotent/);
      expect(r.note, r.input).toMatch(/§9\.3\.2/);
    }
  });
});

describe('CLIENT_CONNECTION_TABLE pipelining note', () => {
  it('does not present waiting for a persistent connection as RFC 9112 §9.3.2, which asks it only of a retry', () => {
    const row = CLIENT_CONNECTION_TABLE.find((r) => r.from === 'busy' && r.input === 'pipeline');
    expect(row?.to).toBe('pipelined');
    expect(row?.note).toMatch(/our choice/);
    expect(row?.note).toMatch(/§9\.3\.2 forbids pipelining at once only on a connection that replaces a failed one/);
  });
});
