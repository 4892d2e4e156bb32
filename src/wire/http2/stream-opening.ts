/**
 * The rules for opening a stream of our own and for what kind of field block we send on it, apart from
 * the connection that applies them (connection.ts) so each reads on its own.
 *
 * - Identifiers (RFC 9113 §5.1.1): a client opens odd streams, a server even ones, each new id above
 *   every id that side has used.
 * - GOAWAY (§6.8): once either side has sent it, no new streams.
 * - Concurrency (§5.1.2): no more active streams of ours than the peer's SETTINGS_MAX_CONCURRENT_STREAMS;
 *   a pushed stream counts once its HEADERS make it half-closed.
 * - Block kinds (§8.1): a client sends a request, then at most trailers; a server sends responses
 *   (informational ones first), then at most trailers.
 *
 * Breaking one of these is misuse of the API, not a peer's fault: each throws a local `Http2Error` and
 * nothing is sent.
 */
import { usageError } from './errors';
import type { BlockKind } from './header-validation';
import type { StreamRegistry } from './stream-registry';
import type { StreamState } from './stream-states';

type Role = 'client' | 'server';

/** The GOAWAY frames exchanged so far: the last stream id each carried, or null when none. */
export interface GoawayState {
  readonly received: number | null;
  readonly sent: number | null;
}

/** Throws unless we may open stream `id` now. `peerLimit` is the peer's SETTINGS_MAX_CONCURRENT_STREAMS. */
export function checkCanOpen(streams: StreamRegistry, role: Role, id: number, goaway: GoawayState, peerLimit: number): void {
  if (!streams.isLocal(id)) {
    throw usageError('PROTOCOL_ERROR', `Stream ${id} would be opened by the ${role === 'client' ? 'server' : 'client'} (RFC 9113 §5.1.1).`, id);
  }
  if (id <= streams.highestLocal) throw usageError('PROTOCOL_ERROR', `Stream ${id} is not above stream ${streams.highestLocal} (RFC 9113 §5.1.1).`, id);
  if (goaway.received !== null) throw usageError('REFUSED_STREAM', 'The peer sent GOAWAY: no new streams (RFC 9113 §6.8).', id);
  if (goaway.sent !== null) throw usageError('REFUSED_STREAM', 'We sent GOAWAY: no new streams (RFC 9113 §6.8).', id);
  checkPeerLimit(streams, id, peerLimit);
}

/** RFC 9113 §5.1.2: throws when another active stream of ours would exceed the peer's limit. */
export function checkPeerLimit(streams: StreamRegistry, id: number, peerLimit: number): void {
  if (streams.active(true) >= peerLimit) {
    throw usageError('REFUSED_STREAM', `The peer allows ${peerLimit} concurrent streams (RFC 9113 §5.1.2).`, id);
  }
}

/** What a block we send on stream `id` (now in `state`) is. */
export function sendKind(streams: StreamRegistry, role: Role, id: number, state: StreamState): BlockKind {
  if (role === 'client') return state === 'idle' ? 'request' : 'trailers';
  return streams.get(id)?.finalSent ? 'trailers' : 'response';
}
