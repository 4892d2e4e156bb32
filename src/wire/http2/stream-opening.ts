/**
 * The rules for opening a stream, ours and the peer's, and for what kind of field block we send on it,
 * apart from the connection that applies them (connection.ts) so each reads on its own.
 *
 * - Identifiers (RFC 9113 §5.1.1): a client opens odd streams, a server even ones, each new id above
 *   every id that side has used.
 * - GOAWAY (§6.8): once either side has sent it, no new streams.
 * - Concurrency (§5.1.2): no more active streams of ours than the peer's SETTINGS_MAX_CONCURRENT_STREAMS;
 *   a pushed stream counts once its HEADERS make it half-closed.
 * - Block kinds (§8.1): a client sends a request, then at most trailers; a server sends responses
 *   (informational ones first), then at most trailers; trailers end the stream, a 1xx response never does.
 * - Push (§6.6, §8.4): only a server pushes, on an open stream of the client's, unless the client set
 *   SETTINGS_ENABLE_PUSH to 0.
 *
 * Breaking one of these is misuse of the API, not a peer's fault: each throws a local `Http2Error` and
 * nothing is sent.
 *
 * The peer's HEADERS and PUSH_PROMISE obey the same identifier rules (§5.1.1), and a push those of §6.6
 * and §8.4. A peer that breaks them broke the protocol: `checkPeerHeaders` and `checkPeerPush` return the
 * connection error (GOAWAY) for the connection to send. A peer stream over our concurrency limit is
 * refused alone (`checkPeerConcurrency`: RST_STREAM).
 */
import type { EncodableField } from '../hpack/index';
import { type Http2Error, connectionError, streamError, usageError } from './errors';
import type { FrameOfType } from './frames';
import { type BlockKind, validateFieldBlock } from './header-validation';
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

/**
 * Throws unless `headers` make a well-formed block of `kind` to send on stream `id`, with END_STREAM or
 * not as `endStream` says (§8.1). Returns its :method, and whether it is an informational (1xx) response.
 */
export function checkBlockToSend(
  kind: BlockKind,
  headers: readonly EncodableField[],
  endStream: boolean | undefined,
  id: number,
): { readonly informational: boolean; readonly method?: string } {
  const problem = validateFieldBlock(headers, kind);
  if ('error' in problem) throw usageError('PROTOCOL_ERROR', problem.error, id);
  const informational = problem.status !== undefined && problem.status < 200;
  if (informational && endStream) {
    throw usageError('PROTOCOL_ERROR', 'A 1xx response cannot end the stream (RFC 9113 §8.1).', id);
  }
  if (kind === 'trailers' && !endStream) {
    throw usageError('PROTOCOL_ERROR', 'Trailers must end the stream: pass endStream: true (RFC 9113 §8.1).', id);
  }
  return { informational, ...(problem.method !== undefined ? { method: problem.method } : {}) };
}

/** Throws unless we may promise `headers` on stream `id` (§6.6, §8.4). `enablePush`: the client's SETTINGS_ENABLE_PUSH. */
export function checkCanPush(streams: StreamRegistry, role: Role, enablePush: number, id: number, headers: readonly EncodableField[]): void {
  if (role !== 'server') throw usageError('PROTOCOL_ERROR', 'Only a server can push (RFC 9113 §8.4).');
  if (enablePush === 0) {
    throw usageError('PROTOCOL_ERROR', 'The client disabled server push with SETTINGS_ENABLE_PUSH = 0 (RFC 9113 §6.5.2).');
  }
  const assoc = streams.state(id);
  if (streams.isLocal(id) || (assoc !== 'open' && assoc !== 'half_closed_remote')) {
    throw usageError('PROTOCOL_ERROR', `PUSH_PROMISE must go on an open client stream; stream ${id} is ${assoc} (RFC 9113 §6.6).`, id);
  }
  const problem = validateFieldBlock(headers, 'request');
  if ('error' in problem) throw usageError('PROTOCOL_ERROR', problem.error, id);
}

/** RFC 9113 §5.1.1: the connection error for the peer's HEADERS on stream `id` (now in `state`), or null when it may send them. */
export function checkPeerHeaders(streams: StreamRegistry, role: Role, id: number, state: StreamState): Http2Error | null {
  if (state === 'idle' && (role === 'client' || streams.isLocal(id))) {
    return connectionError(
      'PROTOCOL_ERROR',
      `HEADERS opening stream ${id}, which the ${role === 'client' ? 'server' : 'client'} may not open (RFC 9113 §5.1.1).`,
    );
  }
  // A lower id than one already used, for a stream never opened, is not "closed" but illegal.
  if (state === 'closed' && !streams.isLocal(id) && !streams.closedRecentlyOrReset(id)) {
    return connectionError('PROTOCOL_ERROR', `HEADERS on stream ${id}, below stream ${streams.highestRemote} already opened (RFC 9113 §5.1.1).`);
  }
  return null;
}

/**
 * RFC 9113 §6.6, §8.4: the connection error for a PUSH_PROMISE the peer may not send, or null. `enablePush`
 * is our SETTINGS_ENABLE_PUSH as the peer acknowledged it.
 */
export function checkPeerPush(streams: StreamRegistry, role: Role, enablePush: number, frame: FrameOfType<'PUSH_PROMISE'>): Http2Error | null {
  if (role === 'server') return connectionError('PROTOCOL_ERROR', 'A client sent PUSH_PROMISE; only servers push (RFC 9113 §8.4).');
  if (enablePush === 0) return connectionError('PROTOCOL_ERROR', 'PUSH_PROMISE received although we set SETTINGS_ENABLE_PUSH = 0 (RFC 9113 §6.6).');
  const assoc = streams.state(frame.streamId);
  if (!streams.isLocal(frame.streamId) || (assoc !== 'open' && assoc !== 'half_closed_local')) {
    return connectionError('PROTOCOL_ERROR', `PUSH_PROMISE on stream ${frame.streamId} in state ${assoc} (RFC 9113 §6.6).`);
  }
  if (frame.promisedStreamId <= streams.highestRemote) {
    return connectionError('PROTOCOL_ERROR', `Promised stream ${frame.promisedStreamId} is not a new stream (RFC 9113 §5.1.1).`);
  }
  return null;
}

/**
 * RFC 9113 §5.1.2: the stream error (REFUSED_STREAM) for the peer's HEADERS on stream `id` (now in
 * `state`) when its active streams are already at `limit`, or null. The limit covers streams the peer opens
 * and pushed streams its HEADERS activate. The connection passes the limit we announced, acknowledged or
 * not (`SettingsExchange.streamLimit`): a client that never acknowledges our SETTINGS must not get
 * unlimited streams (nghttp2 refuses over its pending limit the same way).
 */
export function checkPeerConcurrency(streams: StreamRegistry, id: number, state: StreamState, limit: number): Http2Error | null {
  if ((state !== 'idle' && state !== 'reserved_remote') || streams.active(false) < limit) return null;
  return streamError('REFUSED_STREAM', id, `Over our SETTINGS_MAX_CONCURRENT_STREAMS of ${limit} (RFC 9113 §5.1.2).`);
}
