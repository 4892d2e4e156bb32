/**
 * A playground island: static highlighted code first; Monaco once the reader starts editing; code runs in a
 * sandboxed iframe; Share puts the state in the URL fragment. Hydrated by `client:interaction`, so nothing here
 * runs until the reader touches the playground (or opens a link addressed to it).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConsoleLevel, SourcePosition } from './sandbox/protocol';
import type { SandboxHost } from './sandbox/host';
import type { EditorHandle } from './editor/monaco';
import { decodeShareState, encodeShareState } from './share/codec';
import { formatShareHash, readShareHash } from './share/hash';

export interface PlaygroundProps {
  /** Unique on the page; names the playground in share links. */
  id: string;
  title: string;
  /** The page's original snippet. */
  code: string;
  /** The snippet, highlighted at build time. */
  children?: ReactNode;
}

interface OutputLine {
  key: number;
  level: ConsoleLevel | 'status' | 'failure';
  text: string;
}

type EditorState = 'static' | 'loading' | 'monaco';

const SANDBOX_SRC = '/sandbox/index.html';

function describeFailure(phase: string, message: string, position?: SourcePosition): string {
  const where = position ? ` (line ${position.line}, column ${position.column})` : '';
  return `${phase === 'compile' ? 'Syntax error' : 'Error'}${where}: ${message}`;
}

export default function Playground({ id, title, code: originalCode, children }: PlaygroundProps) {
  const [code, setCode] = useState(originalCode);
  const [editorState, setEditorState] = useState<EditorState>('static');
  const [output, setOutput] = useState<OutputLine[]>([]);
  const [running, setRunning] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [shareStatus, setShareStatus] = useState<string>('');
  const rootRef = useRef<HTMLElement>(null);
  const editorBoxRef = useRef<HTMLDivElement>(null);
  const runButtonRef = useRef<HTMLButtonElement>(null);
  const frameHostRef = useRef<HTMLDivElement>(null);
  const sandboxRef = useRef<SandboxHost | null>(null);
  const editorRef = useRef<EditorHandle | null>(null);
  const codeRef = useRef(code);
  codeRef.current = code;
  const lineKey = useRef(0);

  const append = useCallback((level: OutputLine['level'], text: string) => {
    setOutput((lines) => [...lines, { key: lineKey.current++, level, text }]);
  }, []);

  const run = useCallback(async () => {
    if (!frameHostRef.current) return;
    if (!sandboxRef.current) {
      const { SandboxHost } = await import('./sandbox/host');
      sandboxRef.current = new SandboxHost({ src: SANDBOX_SRC, container: frameHostRef.current });
    }
    setRunning(true);
    setOutput([]);
    editorRef.current?.showRunProblem(null);
    const started = performance.now();
    await sandboxRef.current.run(codeRef.current, (event) => {
      if (event.type === 'console') append(event.level, event.text);
      else if (event.type === 'done') append('status', `Finished in ${Math.round(performance.now() - started)} ms.`);
      else if (event.type === 'error') {
        append('failure', describeFailure(event.phase, event.message, event.position));
        if (event.position) editorRef.current?.showRunProblem({ ...event.position, message: event.message });
      } else append('failure', event.message);
    });
    setRunning(false);
  }, [append]);

  const editorLoading = useRef(false);
  const startEditing = useCallback(async () => {
    if (editorRef.current) {
      editorRef.current.focus();
      return;
    }
    // A ref, not state: the click that woke the island and its replay must not load two editors.
    if (editorLoading.current || !editorBoxRef.current) return;
    editorLoading.current = true;
    setEditorState('loading');
    const { createEditor } = await import('./editor/monaco');
    editorRef.current = createEditor(editorBoxRef.current, {
      code: codeRef.current,
      label: `${title}: code editor. Press Escape, then Tab, to move focus out.`,
      onChange: setCode,
      onRun: () => void run(),
      onEscape: () => runButtonRef.current?.focus(),
    });
    setEditorState('monaco');
    editorRef.current.focus();
  }, [run, title]);

  const share = useCallback(async () => {
    const encoded = await encodeShareState({ code: codeRef.current });
    const url = `${location.origin}${location.pathname}${location.search}${formatShareHash({ id, encoded })}`;
    history.replaceState(history.state, '', url);
    // Some chat tools and browsers cut links near 2,000 characters; say how long this one is.
    const length = `${url.length.toLocaleString('en')} characters${url.length > 2000 ? ', long enough that some apps may cut it' : ''}`;
    try {
      await navigator.clipboard.writeText(url);
      setShareStatus(`Link copied to the clipboard (${length}).`);
    } catch {
      setShareStatus(`The address bar now holds the link to share (${length}).`);
    }
  }, [id]);

  const reset = useCallback(() => {
    if (codeRef.current !== originalCode && !window.confirm('Discard your changes and restore the original snippet?')) return;
    setCode(originalCode);
    editorRef.current?.setValue(originalCode);
    setNotice(null);
  }, [originalCode]);

  // On hydration: restore state from a link addressed to this playground, then perform the action that woke us.
  useEffect(() => {
    let cancelled = false;
    const island = rootRef.current?.closest<HTMLElement>('astro-island');
    const wakeAction = island?.dataset.wakeAction;
    if (island) delete island.dataset.wakeAction;
    (async () => {
      const shared = readShareHash(location.hash);
      if (shared?.id === id) {
        const result = await decodeShareState(shared.encoded);
        if (cancelled) return;
        if (result.ok) {
          setCode(result.state.code);
          setNotice('Opened from a shared link. Read the code, then press Run to run it.');
        } else {
          setNotice(`${result.message} Showing the page's original snippet instead.`);
        }
      }
      if (wakeAction === 'run') void run();
      else if (wakeAction === 'edit') void startEditing();
      else if (wakeAction === 'share') void share();
    })();
    return () => {
      cancelled = true;
    };
    // Runs once, on hydration.
  }, []);

  useEffect(() => () => {
    editorRef.current?.dispose();
    sandboxRef.current?.reset();
  }, []);

  const edited = code !== originalCode;
  return (
    <section ref={rootRef} className="rt-playground not-content" data-playground-id={id} aria-label={`Playground: ${title}`}>
      <div className="rt-toolbar" role="toolbar" aria-label={`${title} controls`}>
        <span className="rt-title">{title}</span>
        <button type="button" data-action="run" ref={runButtonRef} onClick={() => void run()} disabled={running} aria-keyshortcuts="Control+Enter Meta+Enter">
          {running ? 'Running…' : 'Run'}
        </button>
        {editorState === 'static' && (
          <button type="button" data-action="edit" onClick={() => void startEditing()}>
            Edit
          </button>
        )}
        <button type="button" data-action="share" onClick={() => void share()}>
          Share
        </button>
        {edited && (
          <button type="button" data-action="reset" onClick={reset}>
            Reset
          </button>
        )}
      </div>
      {notice && (
        <p className="rt-notice" role="status">
          {notice}
        </p>
      )}
      {editorState !== 'monaco' && (
        <div className="rt-code" data-action="edit" onClick={() => void startEditing()} aria-busy={editorState === 'loading'}>
          {edited || !children ? (
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
        className="rt-editor"
        hidden={editorState !== 'monaco'}
        style={{ height: `${Math.min(Math.max(code.split('\n').length, 6), 28) * 19 + 16}px` }}
      />
      {editorState === 'monaco' && <p className="rt-hint">Ctrl/Cmd+Enter runs. Esc leaves the editor; Tab then moves focus.</p>}
      {output.length > 0 && !running && (
        <div className="rt-output-bar">
          <button type="button" data-action="clear" onClick={() => setOutput([])}>
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
      <p className="rt-share-status" role="status">
        {shareStatus}
      </p>
      <div ref={frameHostRef} className="rt-frame-host" />
    </section>
  );
}
