/**
 * The numbers the comparison shows for each simulation, as of a cursor: page-load time, connections,
 * round trips, bytes on the wire and lost packets.
 */
import type { TraceEvent } from 'roundtrip/wire';

export interface RunSummary {
  readonly requests: number;
  readonly finished: number;
  readonly failed: number;
  /** First request started to last request settled, virtual ms; undefined until one has settled. */
  readonly loadTime: number | undefined;
  /** Connections the client opened (TCP and QUIC). */
  readonly connections: number;
  /** Round-trip time of the client's first hop, virtual ms. */
  readonly rtt: number | undefined;
  /** Load time in units of the RTT: how many round trips the page cost. */
  readonly roundTrips: number | undefined;
  /** Payload bytes of every TCP segment and QUIC packet, both directions, retransmissions included. */
  readonly bytes: number;
  readonly lost: number;
  /** Every request it started has settled. */
  readonly complete: boolean;
}

export function summarize(events: readonly TraceEvent[], visible = events.length, fallbackRtt?: number): RunSummary {
  let requests = 0;
  let finished = 0;
  let failed = 0;
  let first: number | undefined;
  let last: number | undefined;
  let connections = 0;
  let rtt: number | undefined;
  let bytes = 0;
  let lost = 0;
  const n = Math.min(visible, events.length);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    switch (e.type) {
      case 'request-started':
        requests++;
        if (first === undefined) first = e.at;
        break;
      case 'request-finished':
        finished++;
        last = e.at;
        break;
      case 'request-failed':
        failed++;
        last = e.at;
        break;
      case 'connection-opening':
        if (e.from === 'client') {
          connections++;
          rtt ??= e.rtt;
        }
        break;
      case 'quic-connection-opening':
        connections++;
        rtt ??= e.rtt;
        break;
      case 'segment-sent':
        bytes += e.length;
        break;
      case 'quic-packet-sent':
        bytes += e.size;
        break;
      case 'packet-lost':
        lost++;
        break;
      case 'quic-datagram-dropped':
        lost += e.packetNumbers.length;
        break;
      default:
        break;
    }
  }
  rtt ??= fallbackRtt;
  const loadTime = first !== undefined && last !== undefined ? last - first : undefined;
  return {
    requests,
    finished,
    failed,
    loadTime,
    connections,
    rtt,
    roundTrips: loadTime !== undefined && rtt ? loadTime / rtt : undefined,
    bytes,
    lost,
    complete: requests > 0 && finished + failed === requests,
  };
}

/**
 * Index of the fastest run that loaded everything without a failure, or -1 while any run is still loading
 * (a partial time would mislead) or when none qualifies.
 */
export function fastest(summaries: readonly RunSummary[]): number {
  if (summaries.length < 2 || summaries.some((s) => !s.complete)) return -1;
  let best = -1;
  summaries.forEach((s, i) => {
    if (s.failed > 0 || s.loadTime === undefined) return;
    if (best === -1 || s.loadTime < summaries[best]!.loadTime!) best = i;
  });
  return best;
}
