/**
 * The /inspect/ page's island: paste text, drop a file or open a share link, and see it with the playground's
 * visualizers. Reading happens in a module worker (worker.ts, run from run-inspect.ts) so a large input does not
 * freeze the page; the result's Recording goes into a finished RecordingStore and the playground's own VizPanel
 * draws it.
 *
 * The text box is uncontrolled, so what a reader typed or pasted before the island woke up (it hydrates on
 * interaction) survives hydration. Nothing is sent anywhere: the share link keeps the input in the URL's
 * fragment, which browsers never send to a server.
 */
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import type { VizPanelProps } from '../viz/VizPanel';
import type { RecordingStore } from '../viz/recording';
import { decodeShareState, encodeShareState } from '../share/codec';
import { formatShareHash, readShareHash } from '../share/hash';
import { FORMATS, type Format } from './detect';
import type { WorkerRequest } from './chunks';
import { countOf } from './words';
import { splitKeyLog } from './capture/key-log-file';
import { takeWakeActions } from '../build/wake-actions';
import { receiveFiles } from './early-files';
import { replayLink, replaySnippet } from './replay';
import { fileToShareCode, shareCodeToFile } from './share-file';
import { type Reading, runInspect } from './run-inspect';
import { Result } from './Result';
import './inspect.css';

// Exported from here as before: a file's bytes in a share link (share-file.ts), and the store a reading fills
// (run-inspect.ts).
export { fileToShareCode, shareCodeToFile } from './share-file';
export { storeOf } from './run-inspect';

/** The share-link id of this page (`#pg=inspect&s=...`). */
export const INSPECT_SHARE_ID = 'inspect';
/**
 * Longest share link offered, in characters of the encoded fragment. Our own budget, not a standard:
 * browsers take far longer URLs, but chat and mail clients cut long links, and a cut link cannot be read.
 */
export const MAX_SHARE_CHARS = 32_000;
/** Largest input read: 10 MB, a big HAR from a busy page. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** The view each format opens on: the one that shows what that input is made of. */
const FIRST_VIEW: Readonly<Record<Format, string>> = {
  http1: 'messages',
  curl: 'messages',
  h2: 'frames',
  hpack: 'hpack',
  har: 'waterfall',
  pcap: 'sequence',
  quic: 'frames',
  h3: 'frames',
};

/**
 * What the empty box says. Not an example of input: a grey request in the box read as a filled-in box, and
 * Inspect then answered "The input is empty" (issue #27). The example is one press away (SAMPLE).
 */
export const INPUT_HINT = 'Empty: paste an HTTP/1 exchange, curl -v output, HTTP/2 frames or an HPACK block in hex, or a HAR; or load the example.';

/** The example "Load the example" puts in the box: one exchange, whose Content-Length (38) is its body's length (Inspector.test.tsx). */
export const SAMPLE =
  'GET /todos/1 HTTP/1.1\nHost: 127.0.0.1:8080\nUser-Agent: curl/7.88.1\nAccept: */*\n\nHTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 38\n\n{"id":"1","title":"Try the inspector"}';

interface Settings {
  format: Format | null;
  restoreCrlf: boolean;
  tableSize: number;
  sender: 'client' | 'server' | null;
}

const DEFAULT_SETTINGS: Settings = { format: null, restoreCrlf: true, tableSize: 4096, sender: null };

/**
 * The settings as the reader left them before the island woke: it hydrates on interaction, so a first change of
 * a control can land before React owns it. Read during the hydrating render, while the DOM still shows it.
 */
function settingsBeforeWaking(): Settings {
  if (typeof document === 'undefined') return DEFAULT_SETTINGS;
  const value = (id: string) => document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
  const format = value('rt-inspect-format')?.value;
  const sender = value('rt-inspect-sender')?.value;
  const table = Number(value('rt-inspect-table')?.value);
  const crlf = value('rt-inspect-crlf') as HTMLInputElement | null;
  return {
    format: FORMATS.some((f) => f.id === format) ? (format as Format) : null,
    restoreCrlf: crlf ? crlf.checked : true,
    tableSize: Number.isInteger(table) && table >= 0 ? table : 4096,
    sender: sender === 'client' || sender === 'server' ? sender : null,
  };
}

/**
 * Longest file whose text is put in the box, in bytes. A text box lays its whole text out: 9.9 MB of HAR took
 * 1.8 s of style and layout in Chromium, one frame in which the page froze. Over this the box says the file is
 * read as a file instead (its text is still read, in the worker), as DevTools shows a HAR import as requests,
 * never as text. 256 KiB lays out in about 50 ms.
 */
export const MAX_BOX_BYTES = 256 * 1024;

export default function Inspector() {
  const text = useRef<HTMLTextAreaElement>(null);
  const [settings, setSettings] = useState<Settings>(settingsBeforeWaking);
  // A dropped or chosen file; `inBox` says whether its text is in the box (MAX_BOX_BYTES).
  const [file, setFile] = useState<{ name: string; bytes: Uint8Array; inBox: boolean } | undefined>();
  /** The NSS key log given with the open capture (capture/key-log-file.ts): TLS 1.3 is decrypted with it. */
  const keyLog = useRef<string | undefined>(undefined);
  const [result, setResult] = useState<Reading['result']>();
  const [busy, setBusy] = useState(false);
  // Files dropped or chosen together beyond the one read (the inspector reads one file at a time).
  const [leftOut, setLeftOut] = useState<readonly string[]>([]);
  const [share, setShare] = useState<{ link?: string; length: number; message?: string }>();
  const [replay, setReplay] = useState<string>();
  const [store, setStore] = useState<RecordingStore>();
  // Which reading the store holds: the panel is keyed by it. Not by run.current, which moves when a reading
  // starts: the panel would remount then, with the previous store, and keep that store's last step as its cursor.
  const [storeRun, setStoreRun] = useState(0);
  const [Panel, setPanel] = useState<ComponentType<VizPanelProps>>();
  const run = useRef(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const progress = useRef<HTMLSpanElement>(null);

  const read = useCallback(
    async (override?: Partial<Settings>, bytes = file?.bytes) => {
      const value = text.current?.value ?? '';
      const s = { ...settings, ...override };
      const id = ++run.current;
      setBusy(true);
      setShare(undefined);
      setReplay(undefined);
      // A file goes as its bytes alone: the worker decodes them (chunks.ts requestText).
      const input: WorkerRequest['input'] = {
        ...(bytes ? { bytes } : { text: value }),
        format: s.format,
        restoreCrlf: s.restoreCrlf,
        tableSize: s.tableSize,
        sender: s.sender,
        ...(keyLog.current ? { keyLog: keyLog.current } : {}),
      };
      // Progress goes straight to its element: a render per chunk would redraw the previous reading's panel.
      const showProgress = (received: number, total: number) => {
        if (progress.current && id === run.current) progress.current.textContent = `${received.toLocaleString('en')} of ${total.toLocaleString('en')} events`;
      };
      if (progress.current) progress.current.textContent = '';
      const [r, viz] = await Promise.all([runInspect(input, showProgress), import('../viz/VizPanel')]);
      if (id !== run.current) return;
      setPanel(() => viz.default);
      setStore(r.store);
      setStoreRun(id);
      setResult(r.result);
      setBusy(false);
    },
    [settings, file],
  );

  // On waking: a share link addressed here is restored and read (reading runs nothing); otherwise the presses that
  // woke the island (remembered by the client:interaction directive: build/wake-actions.ts) are performed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration; `read` and `makeShare` change with every setting
  useEffect(() => {
    const island = rootRef.current?.closest<HTMLElement>('astro-island');
    const wakes = takeWakeActions(island);
    const openLink = (): boolean => {
      const shared = readShareHash(location.hash);
      if (!shared || shared.id !== INSPECT_SHARE_ID) return false;
      void decodeShareState(shared.encoded).then((decoded) => {
        if (!decoded.ok) {
          setResult({ format: null, detected: false, reason: '', problems: [{ message: decoded.message }], notes: [] });
          return;
        }
        const o = decoded.state.options ?? {};
        // A link made from a dropped file carries its bytes: read those, not the box (which drops CRs).
        const name = typeof o.file === 'string' ? o.file : undefined;
        const bytes = name !== undefined ? shareCodeToFile(decoded.state.code, o.encoding) : undefined;
        if (name !== undefined && !bytes) {
          setResult({
            format: null,
            detected: false,
            reason: '',
            problems: [{ message: `The link is damaged: the bytes of ${name} in it are not one byte per character.` }],
            notes: [],
          });
          return;
        }
        const inBox = !bytes || bytes.length <= MAX_BOX_BYTES;
        if (text.current) text.current.value = !bytes ? decoded.state.code : inBox ? new TextDecoder().decode(bytes) : '';
        setFile(name !== undefined && bytes ? { name, bytes, inBox } : undefined);
        const restored: Settings = {
          format: typeof o.format === 'string' && FORMATS.some((f) => f.id === o.format) ? (o.format as Format) : null,
          restoreCrlf: o.restoreCrlf !== false,
          tableSize: typeof o.tableSize === 'number' ? o.tableSize : 4096,
          sender: o.sender === 'client' || o.sender === 'server' ? o.sender : null,
        };
        setSettings(restored);
        void read(restored, bytes);
      });
      return true;
    };
    if (!openLink()) {
      // Each press that woke the island (Inspect, then Share link, say), in the order they came.
      for (const wake of wakes) {
        if (wake === 'inspect') void read();
        else if (wake === 'share') void makeShare();
        else if (wake === 'example') loadExample();
      }
    }
    // Awake, a link that changes only the fragment (pasted into this tab) is read as well.
    const onHashChange = () => void openLink();
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  /** Fills the box with SAMPLE and reads it, as if the reader had pasted it and pressed Inspect. */
  function loadExample() {
    if (!text.current) return;
    text.current.value = SAMPLE;
    setFile(undefined);
    setLeftOut([]);
    void read({}, undefined);
  }

  const update = (change: Partial<Settings>) => {
    setSettings((s) => ({ ...s, ...change }));
    if (result) void read(change);
  };

  const load = async (dropped: readonly File[]) => {
    // A TLS key log (SSLKEYLOGFILE) dropped or chosen with a capture, or after it, decrypts the capture.
    const split = await splitKeyLog(dropped, { alone: file !== undefined });
    const files = split.files;
    if (split.keyLog !== undefined && files.length === 0) {
      keyLog.current = split.keyLog;
      void read();
      return;
    }
    keyLog.current = split.keyLog;
    const f = files[0];
    if (!f) return;
    setLeftOut(files.slice(1).map((x) => x.name));
    if (f.size > MAX_INPUT_BYTES) {
      setResult({
        format: null,
        detected: false,
        reason: '',
        problems: [{ message: `${f.name} is ${(f.size / 1e6).toFixed(1)} MB; the inspector reads files up to ${MAX_INPUT_BYTES / 1024 / 1024} MB.` }],
        notes: [],
      });
      return;
    }
    const bytes = new Uint8Array(await f.arrayBuffer());
    // Shown as text (UTF-8; bytes that are not become U+FFFD) when short enough for the box, read as the file's exact bytes.
    const inBox = bytes.length <= MAX_BOX_BYTES;
    if (text.current) text.current.value = inBox ? new TextDecoder().decode(bytes) : '';
    setFile({ name: f.name, bytes, inBox });
    void read({}, bytes);
  };
  // Files dropped anywhere on the page or chosen in the input, those that came before this island woke first, in
  // order (early-files.ts: the page's inline script keeps them). The latest `load` is used: it reads the settings.
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => receiveFiles(window, (files) => void loadRef.current(files)), []);

  const makeShare = async () => {
    // A dropped file (untouched since: typing in the box forgets it) is shared as its bytes.
    const fromFile = file ? fileToShareCode(file.bytes) : undefined;
    const code = fromFile ? fromFile.code : (text.current?.value ?? '');
    const options: Record<string, unknown> = {};
    if (file && fromFile) {
      options.file = file.name;
      if (fromFile.encoding) options.encoding = fromFile.encoding;
    }
    if (settings.format) options.format = settings.format;
    if (!settings.restoreCrlf) options.restoreCrlf = false;
    if (settings.tableSize !== 4096) options.tableSize = settings.tableSize;
    if (settings.sender) options.sender = settings.sender;
    const encoded = await encodeShareState({ code, options });
    if (encoded.length > MAX_SHARE_CHARS) {
      setShare({
        length: encoded.length,
        message: `Too large to share: compressed, this input is ${encoded.length.toLocaleString('en')} characters, over the ${MAX_SHARE_CHARS.toLocaleString('en')} a link can safely carry. Share the ${file ? `file (${file.name}, ${file.bytes.length.toLocaleString('en')} bytes)` : 'input'} itself, or trim it to the part that matters.`,
      });
      return;
    }
    const link = `${location.origin}${location.pathname}${formatShareHash({ id: INSPECT_SHARE_ID, encoded })}`;
    history.replaceState(null, '', formatShareHash({ id: INSPECT_SHARE_ID, encoded }));
    setShare({ link, length: encoded.length });
    try {
      await navigator.clipboard?.writeText(link);
    } catch {}
  };

  const makeReplay = async () => {
    if (!result?.replay) return;
    setReplay(await replayLink(replaySnippet(result.replay.exchanges, result.replay.from)));
  };

  return (
    <div className="rt-inspect" data-testid="inspector" data-playground-id={INSPECT_SHARE_ID} ref={rootRef}>
      <div className="rt-inspect-drop">
        <label htmlFor="rt-inspect-input">
          <strong>Paste bytes, text or a HAR</strong>, or drop a file anywhere on the page
        </label>
        <textarea
          id="rt-inspect-input"
          ref={text}
          spellCheck={false}
          defaultValue=""
          placeholder={
            file && !file.inBox
              ? `${file.name} (${formatSize(file.bytes.length)}) is read as a file: its text is too long to show here (over ${formatSize(MAX_BOX_BYTES)}). Type or paste to read something else instead.`
              : INPUT_HINT
          }
          aria-describedby="rt-inspect-private"
          onInput={() => {
            if (file) setFile(undefined);
            setLeftOut((l) => (l.length > 0 ? [] : l));
          }}
        />
      </div>
      <div className="rt-inspect-row">
        <label>
          Format{' '}
          <select
            id="rt-inspect-format"
            value={settings.format ?? ''}
            onChange={(e) => update({ format: (e.target.value || null) as Format | null })}
            data-testid="inspect-format"
          >
            <option value="">Detect</option>
            {FORMATS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input id="rt-inspect-crlf" type="checkbox" checked={settings.restoreCrlf} onChange={(e) => update({ restoreCrlf: e.target.checked })} /> Restore CR
          LF in pasted HTTP/1 heads
        </label>
        <label>
          HTTP/2 sender{' '}
          <select id="rt-inspect-sender" value={settings.sender ?? ''} onChange={(e) => update({ sender: (e.target.value || null) as Settings['sender'] })}>
            <option value="">Work it out</option>
            <option value="client">Client</option>
            <option value="server">Server</option>
          </select>
        </label>
        <label>
          HPACK table size{' '}
          <input
            id="rt-inspect-table"
            type="number"
            min={0}
            max={65536}
            step={1}
            value={settings.tableSize}
            onChange={(e) => update({ tableSize: Math.max(0, Number(e.target.value) || 0) })}
            style={{ width: '7em' }}
          />
        </label>
      </div>
      <div className="rt-inspect-row">
        <button type="button" data-primary="" data-action="inspect" onClick={() => void read()} disabled={busy}>
          {busy ? 'Reading…' : 'Inspect'}
        </button>
        <span ref={progress} className="rt-inspect-progress" data-testid="inspect-progress" hidden={!busy} />
        <button type="button" data-action="example" onClick={loadExample}>
          Load the example
        </button>
        <label>
          {/* Its change events are taken at the page (early-files.ts), before and after hydration alike. */}
          Open a file <input type="file" multiple data-testid="inspect-file" />
        </label>
        <button type="button" data-action="share" onClick={() => void makeShare()}>
          Share link
        </button>
        {result?.replay && result.replay.exchanges.length > 0 && (
          <button type="button" onClick={() => void makeReplay()}>
            Replay in playground
          </button>
        )}
        {result?.noReplay && !result.replay && (
          <span className="rt-inspect-why" data-testid="inspect-no-replay">
            {result.noReplay}
          </span>
        )}
      </div>
      {share && (
        <p className="rt-inspect-meter" data-over={!!share.message} data-testid="inspect-share" role="status">
          {share.message ?? (
            <>
              Link ({share.length.toLocaleString('en')} of {MAX_SHARE_CHARS.toLocaleString('en')} characters), copied and put in the address bar:{' '}
              <a href={share.link}>{share.link!.length > 90 ? `${share.link!.slice(0, 90)}…` : share.link}</a>
            </>
          )}
        </p>
      )}
      {replay && (
        <p role="status">
          <a href={replay} data-testid="inspect-replay">
            Open the replay in the playground
          </a>{' '}
          (a snippet whose mock server answers as the capture did; change the version and the round-trip time there).
        </p>
      )}
      {leftOut.length > 0 && (
        <p className="rt-inspect-meter" data-testid="inspect-left-out" role="status">
          {countOf(leftOut.length + 1, 'file')} came together; the inspector reads one at a time, so only {file?.name ?? 'the first'} was read. Left out:{' '}
          {leftOut.join(', ')}. Drop each on its own to read it.
        </p>
      )}
      {result && <Result result={result} fileName={file?.name} />}
      {result && store && Panel && (
        // Keyed by the store: each reading is a new panel. A capture is inspected, not watched, so it opens at its last step.
        <Panel
          key={storeRun}
          store={store}
          idPrefix="rt-inspect"
          playgroundId="inspect"
          title="Inspected traffic"
          initial={{
            step: Math.max(0, store.snapshot().steps.length - 1),
            ...(result.format ? { view: result.curl ? 'sequence' : FIRST_VIEW[result.format] } : {}),
          }}
        />
      )}
    </div>
  );
}

/** Bytes in KB or MB (decimal, as file managers and DevTools write them). */
function formatSize(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.round(bytes / 1e3)} KB`;
}
