/**
 * A connection's HTTP-level bytes, read once per recording rather than once per cursor (issue #27: re-reading
 * every TLS record from the first event on each step made a jump to the end of "Seven ways" take up to 83 ms a
 * frame). Reading goes in event order and each write's bytes depend only on the events before it, so the bytes
 * as of any cursor are a prefix of these, and the TLS version and the close as of a cursor are those whose events
 * come before it.
 */
import type { Source } from '../../recording/model';
import { DirectionReader } from './streams';
import { tlsProtocolOf, type TlsProtocol } from '../tls-records';

type WireEvents = Extract<Source, { kind: 'wire' }>['events'];

/** One direction of a connection over the whole recording: its HTTP-level bytes, and where each write ends. */
export interface DirectionBytes {
  /** Every HTTP-level byte this direction wrote in the recording (a cursor shows a prefix of them). */
  readonly bytes: Uint8Array;
  /** Event indices of this direction's writes, ascending. */
  readonly writes: readonly number[];
  /** `ends[k]`: how many bytes there are once write `k` is in. */
  readonly ends: readonly number[];
}

/** Both directions of one connection over the whole recording. */
export interface ConnectionBytes {
  readonly client: DirectionBytes;
  readonly server: DirectionBytes;
  /** Index of the event that closed the connection, or Infinity. */
  readonly closedAt: number;
  /** The connection's 'handshake' events over TLS, in order: the last one before a cursor names its TLS. */
  readonly tls: readonly { readonly index: number; readonly protocol: TlsProtocol }[];
}

const connectionBytesCache = new WeakMap<WireEvents, Map<string, ConnectionBytes>>();

/** `connectionId`'s bytes in `events`, read on first use; a recording's snapshot freezes its own events array. */
export function connectionBytes(events: WireEvents, connectionId: string): ConnectionBytes {
  let byId = connectionBytesCache.get(events);
  if (!byId) connectionBytesCache.set(events, (byId = new Map()));
  let read = byId.get(connectionId);
  if (!read) byId.set(connectionId, (read = readConnection(events, connectionId)));
  return read;
}

function readConnection(events: WireEvents, connectionId: string): ConnectionBytes {
  const readers = { client: new DirectionReader(), server: new DirectionReader() };
  const sides = {
    client: { chunks: [] as string[], writes: [] as number[], ends: [] as number[], length: 0 },
    server: { chunks: [] as string[], writes: [] as number[], ends: [] as number[], length: 0 },
  };
  let closedAt = Infinity;
  const tls: { index: number; protocol: TlsProtocol }[] = [];
  events.forEach((e, index) => {
    if (!('connectionId' in e) || e.connectionId !== connectionId) return;
    if (e.type === 'connection-closed' && closedAt === Infinity) closedAt = index;
    const protocol = tlsProtocolOf(e);
    if (protocol) {
      readers.client.protocol = readers.server.protocol = protocol;
      tls.push({ index, protocol });
    }
    if (e.type !== 'bytes-sent') return;
    const side = sides[e.from];
    const data = readers[e.from].read(e.data);
    side.chunks.push(data);
    side.length += data.length;
    side.writes.push(index);
    side.ends.push(side.length);
  });
  const direction = (side: (typeof sides)['client']): DirectionBytes => {
    const text = side.chunks.join('');
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return { bytes, writes: side.writes, ends: side.ends };
  };
  return { client: direction(sides.client), server: direction(sides.server), closedAt, tls };
}

/** How many of `direction`'s bytes are in once the first `count` events are. */
export function bytesBefore(direction: DirectionBytes, count: number): number {
  // The number of writes with an event index below `count` (binary search: the writes are in order).
  let lo = 0;
  let hi = direction.writes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (direction.writes[mid]! < count) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : direction.ends[lo - 1]!;
}
