/**
 * The one 'protocol-error' event for HTTP/1 on the simulated network: the engine's code, text and byte offset,
 * who refused the bytes, and the status that side answered with. The client, the server, the forward proxy and
 * the CONNECT tunnel all trace a refusal through this, so the same engine error reads the same wherever it
 * happens.
 */
import type { WireError } from '../../errors';
import type { NetContext } from '../../net/tcp';
import type { Peer } from '../../trace/events';

/**
 * Traces `error` on `connectionId`. `status` is what `by` answered: a server or proxy answers the engine's status
 * (400 unless the engine suggests another, `statusHint`); a client answers nothing (null).
 */
export function traceHttp1ProtocolError(ctx: NetContext, connectionId: string, by: Peer, error: WireError, status: number | null): void {
  ctx.trace.emit({
    type: 'protocol-error',
    connectionId,
    by,
    protocol: 'http/1',
    code: error.code,
    message: error.message,
    offset: error.offset ?? null,
    status,
  });
}

/** The status a server (or a proxy answering as one) gives a request the engine refused: its hint, else 400. */
export function http1RefusalStatus(error: WireError): number {
  return error.statusHint ?? 400;
}
