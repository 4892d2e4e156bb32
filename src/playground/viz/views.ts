/**
 * The visualizer views a playground can show, in tab order. Each view is loaded only when its tab is opened,
 * and offered only when the run recorded something it can draw (`applies`).
 */
import type { ComponentType } from 'react';
import type { DevtoolsAction, Recording, Source } from '../recording/model';
import { http1ConnectionIds } from './message/streams';

/**
 * Props every view component takes. `cursor` is a step index (-1: before the first event); views show each
 * source as of that step and mark the step's event. `onCursor` lets a view jump the player (click an event).
 */
export interface ViewProps {
  readonly recording: Recording;
  readonly cursor: number;
  readonly onCursor?: (cursor: number) => void;
  /**
   * Sends a devtools action to the run's sandbox (query sources only). Undefined when the sandbox is gone
   * (a new run replaced it, or the recording came from a share link before Run): views then disable actions.
   */
  readonly onAction?: (sourceId: string, action: DevtoolsAction) => void;
  /** True when the cursor is at the end of a recording that is still growing (live), false when replaying. */
  readonly live?: boolean;
}

export interface ViewEntry {
  /** Stable id: used in share links (`view`) and test ids. */
  readonly id: string;
  readonly label: string;
  readonly applies: (recording: Recording) => boolean;
  readonly load: () => Promise<{ default: ComponentType<ViewProps> }>;
}

const hasWire = (r: Recording) => r.sources.some((s) => s.kind === 'wire');
const hasQuery = (r: Recording) => r.sources.some((s) => s.kind === 'query');
const hasWireEvent = (r: Recording, types: readonly string[]) => r.sources.some((s) => s.kind === 'wire' && s.events.some((e) => types.includes(e.type)));

/** HTTP/2 frames that carry a field block (the HPACK stepper has something to step through). */
const hasFieldBlocks = (r: Recording) => r.sources.some((s) => s.kind === 'wire' && s.events.some((e) => e.type === 'h2-frame' && e.hpack !== undefined));
/** HTTP/3 HEADERS frames (the QPACK stepper replays their field sections from the packets' bytes). */
const hasQpackSections = (r: Recording) => hasQuicBytes(r) && hasWireEvent(r, ['http3-frame']);
/** QUIC packets with their bytes (older recordings' 'quic-packet-sent' events have none). */
const hasQuicBytes = (r: Recording) => r.sources.some((s) => s.kind === 'wire' && s.events.some((e) => e.type === 'quic-packet-sent' && e.data !== undefined));
/**
 * Bytes on a connection that carried HTTP/1 (the message inspector reads them; message/streams.ts). Not bytes
 * rebuilt from fields (`options.bytes: 'rebuilt'`: a HAR's heads, written only to label the Sequence view).
 */
const hasHttp1Bytes = (r: Recording) => r.sources.some((s) => s.kind === 'wire' && s.options?.bytes !== 'rebuilt' && http1ConnectionIds(s.events).length > 0);

export const VIEWS: readonly ViewEntry[] = [
  { id: 'sequence', label: 'Sequence', applies: hasWire, load: () => import('./timeline/SequenceView') },
  { id: 'waterfall', label: 'Waterfall', applies: (r) => hasWireEvent(r, ['request-started']), load: () => import('./timeline/WaterfallView') },
  { id: 'compare', label: 'Compare', applies: (r) => r.sources.filter((s) => s.kind === 'wire').length > 1, load: () => import('./timeline/CompareView') },
  { id: 'frames', label: 'Frames', applies: (r) => hasWireEvent(r, ['h2-frame']) || hasQuicBytes(r), load: () => import('./frames/FrameInspector') },
  { id: 'hpack', label: 'HPACK', applies: hasFieldBlocks, load: () => import('./frames/HpackStepper') },
  { id: 'qpack', label: 'QPACK', applies: hasQpackSections, load: () => import('./frames/QpackStepper') },
  { id: 'messages', label: 'Messages', applies: hasHttp1Bytes, load: () => import('./message/MessageInspector') },
  {
    id: 'machines',
    label: 'State machines',
    applies: (r) => hasWireEvent(r, ['transition', 'h2-stream-transition', 'quic-stream-transition']) || hasQuery(r),
    load: () => import('./machines/MachinesView'),
  },
  { id: 'devtools', label: 'Query devtools', applies: hasQuery, load: () => import('./query/DevtoolsView') },
  { id: 'events', label: 'Event timeline', applies: hasQuery, load: () => import('./query/EventTimeline') },
  { id: 'timers', label: 'Timers', applies: hasQuery, load: () => import('./query/TimersView') },
];

/** Ids of every view (share links may name any). */
export const VIEW_IDS: readonly string[] = VIEWS.map((v) => v.id);

/** What each playground library records: the kind of source its runs add (capture-wire.ts, capture-query.ts). */
const SOURCE_KIND_OF: Readonly<Record<string, Source['kind']>> = { 'roundtrip/wire': 'wire', 'roundtrip/query': 'query', 'roundtrip/react': 'query' };

/**
 * The view a run of a snippet that imports `modules` opens on: the first in tab order that applies to a
 * recording with the sources those libraries add, before any event. Its code can then load ahead of the run's
 * first event, which otherwise waits for it before anything is drawn.
 */
export function firstViewFor(modules: readonly string[]): ViewEntry | undefined {
  const kinds = new Set(modules.flatMap((m) => SOURCE_KIND_OF[m] ?? []));
  const sources = [...kinds].map((kind, i) => ({ id: `s${i}`, kind, label: '', events: [] }) as unknown as Source);
  return sources.length ? VIEWS.find((view) => view.applies({ sources, steps: [] })) : undefined;
}
