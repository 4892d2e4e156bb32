/**
 * The visualizer panel of a playground run: tabs for the views that apply to what the run recorded, one shared
 * controls bar, and a text log that says in words what the current step is.
 *
 * - Tabs follow the WAI-ARIA tabs pattern (automatic activation): arrow keys, Home and End move between tabs,
 *   only the selected tab is in the tab order, and each view's module loads when its tab is first opened.
 * - Playback: while the run is going, the cursor follows the newest event (so the first event shows the moment
 *   it arrives). When the run finishes, after-run.ts decides: every view shows the final state at once, with
 *   the scrubber at the end (or a share link's step), and Play replays the run from the start, paced to fit
 *   player.ts's REPLAY_BUDGET_MS. A devtools action (Refetch, Offline...) returns the cursor to the live end,
 *   so its effect shows as it arrives.
 * - The log is an aria-live="polite" region. While playing it speaks at most once a second (the latest step),
 *   so a fast replay does not queue hundreds of announcements; paused, each step is announced as it is shown.
 */
import {
  Component,
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { EMPTY_RECORDING, type DevtoolsAction, type Recording } from '../recording/model';
import type { ViewProps } from './views';
import type { RecordingStore } from './recording';
import { afterRun } from './after-run';
import { Player } from './player';
import { VIEWS, type ViewEntry } from './views';
import { describePosition, describeStep } from './describe';
import { saveFile } from '../download/save';
import Controls from './Controls';

export interface VizPosition {
  /** The open view, when it is not the first one that applies. */
  readonly view?: string;
  /** The step shown, when it is not the last one. */
  readonly step?: number;
}

export interface VizPanelProps {
  readonly store: RecordingStore;
  /** Unique on the page: prefixes element ids. */
  readonly idPrefix: string;
  readonly playgroundId: string;
  readonly title: string;
  /** Sends a devtools action to the run's sandbox; undefined once the sandbox is gone. */
  readonly onAction?: (sourceId: string, action: DevtoolsAction) => void;
  /** Where to open: the view last used, and a step from a share link. */
  readonly initial?: VizPosition;
  /** The view to open on when `initial` names none (the page's `view`), if it applies; else the first that does. */
  readonly defaultView?: string;
  /** Tells the playground what to put in a share link. */
  readonly onPosition?: (position: VizPosition) => void;
}

/** Announcements while playing: at most one per this many ms. */
const ANNOUNCE_EVERY_MS = 1000;

/** Views whose code is in, memoized: the panel also re-renders for things a view does not show (the log, the
 * slider's text), and a view re-render on a long trace is the expensive part of a scrub step. */
const loaded = new Map<string, ComponentType<ViewProps>>();

/**
 * A view, drawn as soon as its code is in. Not `lazy` + `<Suspense>`: React holds back the content of a Suspense
 * boundary that resolves within 300 ms of any fallback shown on the page (FALLBACK_THROTTLE_MS), so a view
 * whose code arrived a moment after the panel opened appeared up to 300 ms after that. A plain placeholder and
 * a state update draw it on the next frame. A failed load is thrown to the ViewBoundary around it.
 */
function LoadedView({ entry, ...props }: ViewProps & { entry: ViewEntry }) {
  // Keyed by the view (ViewBoundary's key): a mount shows one entry for its whole life.
  const [View, setView] = useState(() => loaded.get(entry.id));
  const [failure, setFailure] = useState<{ error: unknown }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `View` only says a load is done; a new entry is what starts one
  useEffect(() => {
    if (View) return;
    let current = true;
    entry.load().then(
      (m) => {
        const component = loaded.get(entry.id) ?? memo(m.default);
        loaded.set(entry.id, component);
        if (current) setView(() => component);
      },
      (error: unknown) => current && setFailure({ error }),
    );
    return () => void (current = false);
  }, [entry]);
  if (failure) throw failure.error;
  return View ? <View {...props} /> : <p className="rt-empty">Loading the {entry.label} view…</p>;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
function useReducedMotion(): boolean {
  // One MediaQueryList per panel: matchMedia on every render showed up in scrub profiles.
  const query = useRef<MediaQueryList | null>(null);
  const list = () => (query.current ??= matchMedia(REDUCED_MOTION));
  return useSyncExternalStore(
    (notify) => {
      list().addEventListener('change', notify);
      return () => list().removeEventListener('change', notify);
    },
    () => list().matches,
    () => false,
  );
}

/** The store's latest snapshot, at most once per animation frame: a burst of batches is one render. */
function useRecording(store: RecordingStore): { recording: Recording; finished: boolean } {
  const read = () => ({ recording: store.snapshot(), finished: store.finished });
  const [state, setState] = useState(read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` is remade every render from `store`, the real dependency
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setState(read());
    };
    update();
    const stop = store.subscribe(() => {
      if (frame === 0) frame = requestAnimationFrame(update);
    });
    return () => {
      stop();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [store]);
  return state;
}

/**
 * Full window: the panel covers the window (CSS, .rt-viz.is-expanded) so dense diagrams get the room they need;
 * the page behind stops scrolling, and Esc returns. Focus stays where it was, on the toggle or in the panel.
 */
function useExpanded(): [boolean, (update: (expanded: boolean) => boolean) => void] {
  const [expanded, setExpanded] = useState(false);
  useEffect(() => {
    if (!expanded) return;
    const root = document.documentElement;
    const before = root.style.overflow;
    root.style.overflow = 'hidden';
    const onKey = (event: globalThis.KeyboardEvent) => {
      // An Esc something inside already used (closing a select's list, leaving the editor) is not ours.
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setExpanded(false);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      root.style.overflow = before;
    };
  }, [expanded]);
  return [expanded, setExpanded];
}

/** A step's kind for replay pacing: its event's type (wire) or kind and action (query). */
function eventKind(event: unknown): string {
  if (!event || typeof event !== 'object') return '';
  const e = event as { type?: unknown; kind?: unknown; action?: unknown; event?: { type?: unknown } };
  if (typeof e.type === 'string') return e.type;
  const inner = e.kind === 'instrumentation' ? e.event?.type : e.action;
  return `${String(e.kind)}:${String(inner ?? '')}`;
}

class ViewBoundary extends Component<{ label: string; children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    if (this.state.error)
      return (
        <p className="rt-viz-error">
          The {this.props.label} view failed: {this.state.error}
        </p>
      );
    return this.props.children;
  }
}

export default function VizPanel({ store, idPrefix, playgroundId, title, onAction, initial, defaultView, onPosition }: VizPanelProps) {
  const { recording, finished } = useRecording(store);
  const reducedMotion = useReducedMotion();
  const recordingRef = useRef<Recording>(EMPTY_RECORDING);
  recordingRef.current = recording;

  const player = useMemo(
    () =>
      new Player({
        clock: { now: () => performance.now(), setTimeout: (f, ms) => window.setTimeout(f, ms), clearTimeout: (h) => window.clearTimeout(h as number) },
        gapBefore: (i) => {
          const { steps, sources } = recordingRef.current;
          const a = steps[i - 1];
          const b = steps[i];
          if (!a || !b || a.sourceId !== b.sourceId) return 0;
          const events = sources.find((s) => s.id === a.sourceId)?.events;
          return Math.max(0, (events?.[b.index]?.at ?? 0) - (events?.[a.index]?.at ?? 0));
        },
        kindOf: (i) => {
          const { steps, sources } = recordingRef.current;
          const step = steps[i];
          const event = step && sources.find((s) => s.id === step.sourceId)?.events[step.index];
          return eventKind(event);
        },
      }),
    [],
  );
  useEffect(() => () => player.dispose(), [player]);
  const seek = useCallback((step: number) => player.seek(step), [player]);
  const state = useSyncExternalStore(
    (notify) => player.subscribe(notify),
    () => player.state,
    () => player.state,
  );
  useEffect(() => player.setReducedMotion(reducedMotion), [player, reducedMotion]);

  // Live until the run finishes: the newest event shows as soon as it arrives.
  const started = useRef(false);
  if (!started.current) {
    started.current = true;
    player.follow();
  }
  useEffect(() => player.setLength(recording.steps.length), [player, recording]);

  // The run finished: stay on its final state (the live end), or go where a share link said.
  const settled = useRef(false);
  useEffect(() => {
    if (!finished || settled.current || recording.steps.length === 0) return;
    settled.current = true;
    // The reader already took the player in hand (stepped, scrubbed, pressed Play) before the finish reached
    // the panel: their position wins.
    if (!player.state.following) return;
    const next = afterRun(recording, { initialStep: initial?.step });
    if (next.kind === 'seek') player.seek(next.step);
    else player.follow();
  }, [finished, recording, player, initial]);

  // A devtools action's effect arrives as new events: follow the live end so the reader sees it happen.
  const act = useMemo(
    () =>
      onAction &&
      ((sourceId: string, action: DevtoolsAction) => {
        player.follow();
        onAction(sourceId, action);
      }),
    [onAction, player],
  );

  const views = useMemo(() => VIEWS.filter((v) => v.applies(recording)), [recording]);
  const [chosen, setChosen] = useState<string | undefined>(initial?.view);
  const fallback = views.find((v) => v.id === defaultView) ?? views[0];
  const active = views.find((v) => v.id === chosen) ?? fallback;

  const cursor = state.cursor;
  useEffect(() => {
    if (!onPosition) return;
    // Named when it is not the first view, or not the page's: a link then reopens it whatever the page's default.
    const view = active && (active !== views[0] || active !== fallback) ? active.id : undefined;
    const step = cursor >= 0 && cursor < recording.steps.length - 1 ? cursor : undefined;
    onPosition({ ...(view ? { view } : {}), ...(step !== undefined ? { step } : {}) });
  }, [onPosition, active, views, fallback, cursor, recording]);

  // The log: every step when paused, the latest at most once a second while playing. Paused, the text is
  // derived during render (no state): a scrub step is then one render of the panel, not two.
  const text = describeStep(recording, cursor);
  const [throttled, setThrottled] = useState({ text, playing: state.playing });
  // Play pressed or paused: start the throttle from the step shown now (adjusting state while rendering).
  if (throttled.playing !== state.playing) setThrottled({ text, playing: state.playing });
  const announced = state.playing ? throttled.text : text;
  const lastAnnounce = useRef(0);
  useEffect(() => {
    if (!state.playing) {
      lastAnnounce.current = performance.now();
      return;
    }
    const wait = ANNOUNCE_EVERY_MS - (performance.now() - lastAnnounce.current);
    const timer = window.setTimeout(
      () => {
        lastAnnounce.current = performance.now();
        setThrottled({ text, playing: true });
      },
      Math.max(0, wait),
    );
    return () => window.clearTimeout(timer);
  }, [text, state.playing]);

  const [expanded, setExpanded] = useExpanded();

  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const onTabKey = useCallback(
    (event: KeyboardEvent<HTMLButtonElement>) => {
      const at = views.findIndex((v) => v.id === active?.id);
      const next =
        event.key === 'ArrowRight'
          ? (at + 1) % views.length
          : event.key === 'ArrowLeft'
            ? (at - 1 + views.length) % views.length
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? views.length - 1
                : -1;
      if (next < 0 || !views[next]) return;
      event.preventDefault();
      setChosen(views[next].id);
      tabRefs.current.get(views[next].id)?.focus();
    },
    [views, active],
  );

  // The selected tab stays in view when the tab row scrolls sideways (phone width, Playground.css).
  const activeId = active?.id;
  useEffect(() => {
    const tab = activeId ? tabRefs.current.get(activeId) : undefined;
    const row = tab?.parentElement;
    if (!tab || !row || row.scrollWidth <= row.clientWidth) return;
    const left = tab.offsetLeft - row.offsetLeft;
    if (left < row.scrollLeft) row.scrollLeft = left;
    else if (left + tab.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = left + tab.offsetWidth - row.clientWidth;
  }, [activeId]);

  // Whether a HAR would have entries; the HAR itself is built only when asked for.
  const har = useMemo(
    () => finished && recording.sources.some((s) => s.kind === 'wire' && s.events.some((e) => e.type === 'request-finished' || e.type === 'request-failed')),
    [finished, recording],
  );
  // The exporters load on the first export: the HAR one brings the wire library's HAR writer, which a run's
  // first draw should not wait for (a cold Run evaluates the panel's code on the page's busiest frames).
  const exportJson = useCallback(async () => {
    const { recordingToJson } = await import('./export');
    saveFile(`${playgroundId}-trace.json`, JSON.stringify(recordingToJson(recordingRef.current, playgroundId), null, 1), 'application/json');
  }, [playgroundId]);
  const exportHar = useCallback(async () => {
    const { recordingToHar } = await import('./export');
    const built = recordingToHar(recordingRef.current);
    if (built) saveFile(`${playgroundId}.har`, JSON.stringify(built, null, 1), 'application/json');
  }, [playgroundId]);

  if (recording.sources.length === 0) {
    // Snippets that call the codecs directly (encodeFrames, HpackEncoder) run fine but record nothing: say what
    // the views follow, so the reader knows where to look and what would make them draw.
    return (
      <p className="rt-empty">
        {finished
          ? 'Nothing to visualize: the views follow what a simulation (createSimulation from roundtrip/wire) or a QueryClient records, and bytes passed to show() from roundtrip/playground; this run had none. What it printed is in the console.'
          : 'Recording…'}
      </p>
    );
  }

  const live = state.following && !!onAction;
  return (
    <div className={`rt-viz${expanded ? ' is-expanded' : ''}`} data-testid="viz-panel">
      <div className="rt-viz-head">
        {views.length > 0 && (
          <div className="rt-viz-tabs" role="tablist" aria-label={`${title} visualizers`}>
            {views.map((v) => {
              const selected = v.id === active?.id;
              return (
                <button
                  key={v.id}
                  ref={(el) => void (el ? tabRefs.current.set(v.id, el) : tabRefs.current.delete(v.id))}
                  type="button"
                  role="tab"
                  id={`${idPrefix}-viz-tab-${v.id}`}
                  aria-selected={selected}
                  aria-controls={`${idPrefix}-viz-panel`}
                  tabIndex={selected ? 0 : -1}
                  data-view={v.id}
                  onClick={() => setChosen(v.id)}
                  onKeyDown={onTabKey}
                >
                  {v.label}
                </button>
              );
            })}
          </div>
        )}
        {/* A toggle, as DevTools' and code playgrounds' "full screen" buttons are: the same button (or Esc) returns. */}
        <button
          type="button"
          className="rt-viz-expand"
          data-action="expand"
          aria-pressed={expanded}
          aria-keyshortcuts={expanded ? 'Escape' : undefined}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Exit full window' : 'Full window'}
        </button>
      </div>
      <Controls
        idPrefix={idPrefix}
        state={state}
        valueText={describePosition(recording, cursor)}
        onToggle={() => player.toggle()}
        onStepBack={() => player.stepBack()}
        onStepForward={() => player.stepForward()}
        onSeek={seek}
        onSpeed={(speed) => player.setSpeed(speed)}
        onExportJson={exportJson}
        {...(har ? { onExportHar: exportHar } : {})}
      />
      <p className="rt-viz-now" aria-hidden="true">
        {text}
      </p>
      <div className="rt-visually-hidden" aria-live="polite" aria-atomic="true" data-testid="viz-log">
        {announced}
      </div>
      {active && (
        <div
          className="rt-viz-view"
          role="tabpanel"
          id={`${idPrefix}-viz-panel`}
          aria-labelledby={`${idPrefix}-viz-tab-${active.id}`}
          tabIndex={0}
          data-view={active.id}
        >
          <ViewBoundary key={active.id} label={active.label}>
            <LoadedView entry={active} recording={recording} cursor={cursor} onCursor={seek} {...(act ? { onAction: act } : {})} live={live} />
          </ViewBoundary>
        </div>
      )}
    </div>
  );
}
