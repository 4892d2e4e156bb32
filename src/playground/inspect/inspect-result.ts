/**
 * What the inspector takes and gives back (inspect.ts): the input, the result the page shows, and `Body`, the part
 * each format's reader fills (inspect-http1.ts, inspect-curl.ts, inspect-h2.ts, and the rest in inspect.ts), with
 * the few words and helpers those readers share.
 */
import type { Recording } from '../recording/model';
import type { CaptureSummary } from './capture';
import type { CurlMessage } from './curl';
import type { Format } from './detect';
import type { FlowRow, Sender } from './h2';
import type { HarCheck } from './har';
import type { Verdict } from './http1';
import type { ReplayExchange } from './replay';
import type { QuicInspection } from './quic';
import { STEP_MS } from './to-recording';

export interface InspectInput {
  readonly text: string;
  /** A dropped file's bytes; absent for pasted text. */
  readonly bytes?: Uint8Array;
  /** null: detect. */
  readonly format?: Format | null;
  /** Restore CR LF in HTTP/1 heads of pasted text (a text box drops the CR). */
  readonly restoreCrlf?: boolean;
  /** HPACK: SETTINGS_HEADER_TABLE_SIZE (the largest dynamic table the encoder may use). */
  readonly tableSize?: number;
  /** HTTP/2: who sent the frames; null: work it out. */
  readonly sender?: Sender | null;
  /** pcap/pcapng: an NSS key log (SSLKEYLOGFILE) given with the capture; read by inspectAsync. */
  readonly keyLog?: string;
}

/** One side of an HTTP/2 connection: its frames and its DATA against the windows its peer gave. */
export interface H2SideSummary {
  readonly preface: boolean;
  readonly frames: number;
  readonly blocks: number;
  readonly flow: readonly FlowRow[];
}

export interface Problem {
  /** What went wrong and why, in words. */
  readonly message: string;
  /** Where: 'line 3, column 7', 'byte 40 (frame 3)'. */
  readonly where?: string;
}

export interface InspectResult {
  readonly format: Format | null;
  readonly detected: boolean;
  /** Why that format: the detector's reason, or 'chosen'. */
  readonly reason: string;
  readonly recording?: Recording;
  readonly problems: readonly Problem[];
  readonly notes: readonly string[];
  readonly verdicts?: readonly Verdict[];
  readonly h2?: { readonly sender: Sender; readonly preface: boolean; readonly frames: number; readonly blocks: number; readonly flow: readonly FlowRow[] };
  /** HTTP/2 with both sides (h2-connection.ts): each side's frames and flow control, and the streams matched by id. */
  readonly h2Connection?: {
    readonly timed: boolean;
    readonly client: H2SideSummary;
    readonly server: H2SideSummary;
    readonly streams: readonly {
      readonly streamId: number;
      readonly method?: string;
      readonly path?: string;
      readonly status?: number;
      readonly requestData: number;
      readonly responseData: number;
      /** Each endpoint's state of the stream at the end (RFC 9113 §5.1). */
      readonly states: Readonly<Record<Sender, string>>;
    }[];
  };
  readonly hpack?: {
    /** Every block's fields, in order. */
    readonly fields: readonly { name: string; value: string }[];
    /** Each pasted block's fields (one entry for a single block). */
    readonly blocks: readonly (readonly { name: string; value: string }[])[];
    readonly table: { size: number; maxSize: number; entries: readonly { name: string; value: string; inserted: number }[]; evicted: number };
  };
  readonly har?: { readonly creator: string; readonly entries: number; readonly versions: readonly string[]; readonly checks: readonly HarCheck[] };
  readonly replay?: { readonly from: string; readonly exchanges: readonly ReplayExchange[] };
  /** Why the input cannot be replayed, when the page would otherwise just not offer it. */
  readonly noReplay?: string;
  /** curl -v over HTTP/2: each message's fields, as curl listed or printed them. */
  readonly curl?: { readonly version: string; readonly messages: readonly CurlMessage[] };
  /** pcap/pcapng: packets, TCP connections with their segments, TLS records (capture/index.ts). */
  readonly capture?: CaptureSummary;
  /** QUIC datagrams in hex (quic.ts): each packet's header, the Initials opened (by inspectAsync) and the TLS Hellos in them. */
  readonly quic?: QuicInspection;
}

/** What a format's reader returns: the result, less what `inspect` says about detection. */
export type Body = Omit<InspectResult, 'detected' | 'reason'>;

/** Said wherever to-recording.ts spaces pasted input by steps. */
export const untimed = (what: string) =>
  `Pasted bytes hold no times: the views put each ${what} ${STEP_MS} ms after the one before, so the times there give the order, not a measurement.`;

/** A request target as a path for a replay: an absolute-form target (a proxy's, a HAR's URL) loses its origin, and what is not a URL becomes '/'. */
export function safePath(target: string): string {
  try {
    const u = new URL(target);
    return u.pathname + u.search;
  } catch {
    return '/';
  }
}
