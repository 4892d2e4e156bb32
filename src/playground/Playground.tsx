/**
 * A playground island: static highlighted code first; Monaco once the reader starts editing; code runs in a
 * sandboxed iframe; Share puts the state in the URL fragment. Hydrated by `client:interaction`, so nothing here
 * runs until the reader touches the playground (or opens a link addressed to it).
 *
 * The state and what changes it live in the store (store/store.ts); this component draws a snapshot of it and
 * hands the reader's actions to it.
 */
import ChallengePanel, { type ChallengeInfo } from './challenges/ChallengePanel';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { OptionsSchema } from './options/schema';
import OptionsPanel from './options/OptionsPanel';
import { PanelTabs, panelProps, useNarrow } from './layout/tabs';
import { hasOptions as anyOptions, optionsChanged, optionValues } from './store/options';
import { parseWakeAction, PlaygroundStore, type WakeAction } from './store/store';
import { browserEnv, sandboxSrcFor } from './store/browser';
import PlaygroundToolbar from './PlaygroundToolbar';
import { useHighlighted } from './highlight';
import { caretAtPoint, selectionIn } from './editor/caret';
import { takeWakeActions } from './build/wake-actions';
import type { TextSelection } from './editor/monaco';
import { GhostContext, type GhostContextValue } from './viz/ghost-context';
import SplitDivider, { SPLIT_DEFAULT } from './SplitDivider';

/**
 * A click on the code before hydration made it editable in place (build/interaction-directive.ts editInPlace):
 * the editor opens with what the reader typed there and where their cursor was.
 */
function takeEditedInPlace(root: HTMLElement | null, code: string, wake: WakeAction): WakeAction {
  const inPlace = root?.querySelector<HTMLElement>('.rt-code pre[contenteditable]');
  if (wake.kind !== 'edit' || !inPlace) return wake;
  // The build shows the snippet without its final newline; the editor keeps it.
  const text = (inPlace.textContent ?? '') + (code.endsWith('\n') ? '\n' : '');
  const selection = selectionIn(inPlace);
  return { kind: 'edit', ...(text !== code ? { code: text } : {}), ...(selection ? { selection } : {}) };
}

/** Where a click in the static code puts the editor's cursor: the reader's selection there, else the point clicked. */
function clickedSelection(code: HTMLElement, x: number, y: number): TextSelection | undefined {
  const selected = selectionIn(code);
  if (selected && selected.end > selected.start) return selected;
  const at = caretAtPoint(code, x, y);
  return at === undefined ? undefined : { start: at, end: at };
}

/**
 * The full-page playground's split (SplitDivider.tsx): the editor's share of the width, kept for the page's life
 * so a playground that remounts keeps it. Nothing is written to storage.
 */
let fullSplit = SPLIT_DEFAULT;

export interface PlaygroundProps {
  /** Unique on the page; names the playground in share links. */
  id: string;
  title: string;
  /** The page's original snippet. */
  code: string;
  /** The snippet, highlighted at build time. */
  children?: ReactNode;
  /** `code` compiled to JavaScript at build time; its runs skip the sandbox's compiler. */
  compiled?: string;
  /** The snippet's options schema, read at build time (options/extract.ts); the panel shows before any run. */
  schema?: OptionsSchema;
  /** The full-page playground for this example (/playground/<id>/) and the id of the playground there. */
  openIn?: { href: string; id: string };
  /** 'full': the /playground page's one big playground. */
  variant?: 'embedded' | 'full';
  /** The view a run opens on (viz/views.ts id), when it applies: the one that teaches the page. A share link's view wins. */
  view?: string;
  /** A "Try it" playground's challenge: each run is checked (challenges/ChallengePanel.tsx). */
  challenge?: ChallengeInfo;
}

export default function Playground({
  id,
  title,
  code: originalCode,
  children,
  compiled,
  schema,
  openIn,
  variant = 'embedded',
  view,
  challenge,
}: PlaygroundProps) {
  const rootRef = useRef<HTMLElement>(null);
  const editorBoxRef = useRef<HTMLDivElement>(null);
  const runButtonRef = useRef<HTMLButtonElement>(null);
  const frameHostRef = useRef<HTMLDivElement>(null);
  const splitRef = useRef<HTMLDivElement>(null);
  const [store] = useState(() => {
    const config = { id, title, code: originalCode, compiled, schema, openIn, variant, view };
    const parts = { frameHost: () => frameHostRef.current, editorBox: () => editorBoxRef.current, runButton: () => runButtonRef.current, renderNow: flushSync };
    const made: PlaygroundStore = new PlaygroundStore(
      config,
      browserEnv(config, () => made.getState().code, parts),
    );
    return made;
  });
  const {
    code,
    editor: editorState,
    panel,
    optionsOpen,
    options,
    run,
    output,
    viz: vizRun,
    ghost,
    notice,
    shareStatus,
    downloadStatus,
  } = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  // The previous run for the views to draw under this one (store/ghost.ts); a new value only when it changes.
  const ghostContext = useMemo<GhostContextValue>(() => ({ ghost, pin: store.pinGhost, clear: store.clearGhost }), [ghost, store]);
  const narrow = useNarrow();
  const prefix = `rt-${id}`;
  const [split, setSplit] = useState(fullSplit);
  const [challengeWakes, setChallengeWakes] = useState<readonly string[]>([]);
  const changeSplit = (value: number) => {
    fullSplit = value;
    setSplit(value);
  };

  // On hydration: restore state from a link addressed to this playground, then perform the presses that woke us.
  useEffect(() => {
    const island = rootRef.current?.closest<HTMLElement>('astro-island');
    const taken = takeWakeActions(island);
    // Presses on a challenge's own buttons (hints, solution) before hydration go to its panel.
    setChallengeWakes(taken.filter((action) => action.startsWith('challenge-')));
    const wakes = taken
      .filter((action) => !action.startsWith('challenge-'))
      .map((action) => takeEditedInPlace(rootRef.current, store.config.code, parseWakeAction(action)));
    const hydration = store.hydrate(location.hash, wakes);
    // Once awake, a link that changes only the fragment (same page, no reload) is this island's to load; the
    // directive brings the playground into view (build/interaction-directive.ts).
    const onHashChange = () => void store.openLink(location.hash);
    window.addEventListener('hashchange', onHashChange);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      hydration.cancel();
      store.dispose();
    };
  }, [store]);

  const running = run.status === 'running';
  const edited = code !== originalCode;
  const editing = editorState === 'monaco' || editorState === 'lite';
  const hasOptions = anyOptions(options);
  const changed = optionsChanged(options);
  const maxLines = variant === 'full' ? 40 : 28;
  // Code the build did not highlight (from a link, or edited): coloured on the client, plain until then.
  const highlighted = useHighlighted(code, !editing && (edited || !children));

  const panels = (
    <>
      <div className="rt-panel rt-panel-code" {...panelProps(prefix, 'code', panel, narrow)}>
        {!editing && (
          // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a pointer shortcut; keyboards use the Edit button
          <div
            className="rt-code"
            data-action="edit"
            // The editor opens with the cursor where the reader clicked (or the text they selected).
            onClick={(e) => void store.startEditing(clickedSelection(e.currentTarget, e.clientX, e.clientY))}
            onPointerEnter={(e) => e.pointerType === 'mouse' && store.prepareEditor()}
            aria-busy={editorState === 'loading'}
          >
            {highlighted ? (
              // biome-ignore lint/security/noDangerouslySetInnerHtml: Shiki's output, which escapes the code it colours
              <div dangerouslySetInnerHTML={{ __html: highlighted }} />
            ) : edited || !children ? (
              <pre className="rt-plain">
                <code>{code}</code>
              </pre>
            ) : (
              children
            )}
          </div>
        )}
        <div
          ref={editorBoxRef}
          className={`rt-editor${editorState === 'lite' ? ' rt-editor-lite' : ''}`}
          hidden={!editing}
          style={editorState === 'monaco' ? { height: `${Math.min(Math.max(code.split('\n').length, 6), maxLines) * 19 + 16}px` } : undefined}
        />
        {editing && <p className="rt-hint">Ctrl/Cmd+Enter runs. Esc leaves the editor; Tab then moves focus.</p>}
      </div>
      {variant === 'full' && <SplitDivider value={split} onChange={changeSplit} controls={`${prefix}-panel-code`} container={() => splitRef.current} />}
      <div className="rt-panel rt-panel-output" {...panelProps(prefix, 'output', panel, narrow)}>
        {output.length > 0 && !running && (
          <div className="rt-output-bar">
            <button type="button" data-action="clear" onClick={store.clearOutput}>
              Clear console
            </button>
          </div>
        )}
        <div className="rt-output" role="log" aria-live="polite" aria-label={`${title} console output`}>
          {output.length === 0 ? (
            <p className="rt-empty">Console output appears here.</p>
          ) : (
            output.map((line) => (
              <pre key={line.key} className={`rt-line rt-${line.level}`}>
                {line.text}
              </pre>
            ))
          )}
        </div>
        <div ref={frameHostRef} className="rt-frame-host" />
      </div>
      <div className="rt-panel rt-panel-timeline" {...panelProps(prefix, 'timeline', panel, narrow)}>
        {/* The visualizer panel: below the output on wide screens, the Timeline tab on phones. */}
        {vizRun ? (
          <GhostContext.Provider value={ghostContext}>
            <vizRun.Panel
              key={vizRun.key}
              store={vizRun.recording}
              idPrefix={prefix}
              playgroundId={id}
              title={title}
              {...(vizRun.live ? { onAction: store.devtools } : {})}
              initial={vizRun.initial}
              {...(view ? { defaultView: view } : {})}
              onPosition={store.setPosition}
            />
          </GhostContext.Provider>
        ) : (
          <p className="rt-empty rt-timeline-placeholder">Run the snippet to record its timeline.</p>
        )}
      </div>
    </>
  );

  return (
    <section
      ref={rootRef}
      className={`rt-playground not-content${variant === 'full' ? ' rt-playground-full' : ''}`}
      data-playground-id={id}
      // What a "Skip to playground" link (components/SkipLink.astro) points at, so it lands here without script too.
      id={`rt-skip-${id}`}
      data-sandbox-src={sandboxSrcFor(originalCode, originalCode, compiled)}
      // For the directive: a press on Run before hydration starts this in the sandbox at once (spare.ts startEarlyRun).
      data-compiled={compiled}
      aria-label={`Playground: ${title}`}
      // The full variant's columns from 1024 px (Playground.css): the editor's share, the divider, the rest.
      style={variant === 'full' ? ({ '--rt-split-editor': `${split}fr`, '--rt-split-rest': `${100 - split}fr` } as CSSProperties) : undefined}
    >
      <PlaygroundToolbar
        store={store}
        title={title}
        prefix={prefix}
        runButtonRef={runButtonRef}
        running={running}
        editable={editorState === 'static'}
        hasOptions={hasOptions}
        optionsOpen={optionsOpen}
        optionsChanged={changed}
        edited={edited}
      />
      {notice && (
        <p className="rt-notice" role="status">
          {notice}
        </p>
      )}
      {hasOptions && optionsOpen && (
        <div id={`${prefix}-options`} className="rt-options-box">
          <OptionsPanel
            idPrefix={prefix}
            title={title}
            schema={options.schema!}
            values={optionValues(options)}
            changed={changed}
            onChange={(name, value) => store.setOptions({ [name]: value })}
            onReset={store.resetOptions}
            onAdopt={store.setOptions}
          />
        </div>
      )}
      {/* A challenge's verdict sits under the toolbar, where Run was pressed, above the code and its output. */}
      {challenge && <ChallengePanel challenge={challenge} store={store} prefix={prefix} wakes={challengeWakes} />}
      <PanelTabs prefix={prefix} title={title} active={panel} narrow={narrow} onSelect={store.selectPanel} />
      {/* The full variant puts the panels in a box that sets the editor beside the rest from 1024 px. */}
      {variant === 'full' ? (
        <div className="rt-split" ref={splitRef}>
          {panels}
        </div>
      ) : (
        panels
      )}
      <p className="rt-share-status" role="status">
        {shareStatus || downloadStatus}
      </p>
    </section>
  );
}
