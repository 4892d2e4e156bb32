/**
 * The visualizer views a playground can show, in tab order. Each view is loaded only when its tab is opened,
 * and offered only when the run recorded something it can draw (`applies`).
 */
import type { ComponentType } from 'react';
import type { Recording, ViewProps } from './model';

export interface ViewEntry {
  /** Stable id: used in share links (`view`) and test ids. */
  readonly id: string;
  readonly label: string;
  readonly applies: (recording: Recording) => boolean;
  readonly load: () => Promise<{ default: ComponentType<ViewProps> }>;
}

const hasWire = (r: Recording) => r.sources.some((s) => s.kind === 'wire');
const hasQuery = (r: Recording) => r.sources.some((s) => s.kind === 'query');
const hasWireEvent = (r: Recording, types: readonly string[]) =>
  r.sources.some((s) => s.kind === 'wire' && s.events.some((e) => types.includes(e.type)));

/** HTTP/2 frames that carry a field block (the HPACK stepper has something to step through). */
const hasFieldBlocks = (r: Recording) => r.sources.some((s) => s.kind === 'wire' && s.events.some((e) => e.type === 'h2-frame' && e.hpack !== undefined));
/** Bytes on a connection that is not HTTP/2 (the message inspector reads HTTP/1.x). */
const hasHttp1Bytes = (r: Recording) =>
  r.sources.some((s) => {
    if (s.kind !== 'wire') return false;
    const h2 = new Set(s.events.flatMap((e) => (e.type === 'h2-preface' ? [e.connectionId] : [])));
    return s.events.some((e) => e.type === 'bytes-sent' && !h2.has(e.connectionId));
  });

/**
 * The view modules, found at build time. The views are written alongside the panel; a view whose module does
 * not exist (yet) is left out of the tabs instead of breaking the build.
 */
const MODULES = import.meta.glob<{ default: ComponentType<ViewProps> }>([
  './timeline/SequenceView.tsx',
  './timeline/WaterfallView.tsx',
  './timeline/CompareView.tsx',
  './frames/FrameInspector.tsx',
  './frames/HpackStepper.tsx',
  './message/MessageInspector.tsx',
  './machines/MachinesView.tsx',
  './query/DevtoolsView.tsx',
  './query/EventTimeline.tsx',
  './query/TimersView.tsx',
]);

const ALL: readonly (Omit<ViewEntry, 'load'> & { readonly module: string })[] = [
  { id: 'sequence', label: 'Sequence', applies: hasWire, module: './timeline/SequenceView.tsx' },
  { id: 'waterfall', label: 'Waterfall', applies: (r) => hasWireEvent(r, ['request-started']), module: './timeline/WaterfallView.tsx' },
  { id: 'compare', label: 'Compare', applies: (r) => r.sources.filter((s) => s.kind === 'wire').length > 1, module: './timeline/CompareView.tsx' },
  { id: 'frames', label: 'Frames', applies: (r) => hasWireEvent(r, ['h2-frame']), module: './frames/FrameInspector.tsx' },
  { id: 'hpack', label: 'HPACK', applies: hasFieldBlocks, module: './frames/HpackStepper.tsx' },
  { id: 'messages', label: 'Messages', applies: hasHttp1Bytes, module: './message/MessageInspector.tsx' },
  { id: 'machines', label: 'State machines', applies: (r) => hasWireEvent(r, ['transition', 'h2-stream-transition', 'quic-stream-transition']) || hasQuery(r), module: './machines/MachinesView.tsx' },
  { id: 'devtools', label: 'Query devtools', applies: hasQuery, module: './query/DevtoolsView.tsx' },
  { id: 'events', label: 'Event timeline', applies: hasQuery, module: './query/EventTimeline.tsx' },
  { id: 'timers', label: 'Timers', applies: hasQuery, module: './query/TimersView.tsx' },
];

export const VIEWS: readonly ViewEntry[] = ALL.flatMap(({ module, ...entry }) => {
  const load = MODULES[module];
  return load ? [{ ...entry, load }] : [];
});

/** Ids of every view the registry knows, available in this build or not (share links may name any). */
export const VIEW_IDS: readonly string[] = ALL.map((v) => v.id);
