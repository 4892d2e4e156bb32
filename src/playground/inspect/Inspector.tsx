/**
 * The /inspect/ page's island: paste text, drop a file or open a share link, and see it with the playground's
 * visualizers. Reading happens in a module worker (worker.ts) so a large input does not freeze the page; the
 * result's Recording goes into a finished RecordingStore and the playground's own VizPanel draws it.
 *
 * The text box is uncontrolled, so what a reader typed or pasted before the island woke up (it hydrates on
 * interaction) survives hydration. Nothing is sent anywhere: the share link keeps the input in the URL's
 * fragment, which browsers never send to a server.
 */
import { useCallback, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { VizPanelProps } from '../viz/VizPanel';
import { MAX_RECORDING_EVENTS, RecordingStore } from '../viz/recording';
import type { Recording, SourceInfo } from '../recording/model';
import { decodeShareState, encodeShareState } from '../share/codec';
import { formatShareHash, readShareHash } from '../share/hash';
import { FORMATS, type Format } from './detect';
import type { InspectResult } from './inspect';
import { type ChunkPart, recordingChunks, requestText, sourceInfos, type WorkerMessage, type WorkerNext, type WorkerRequest } from './chunks';
import { countOf } from './words';
import { H2Connection, H2OneSide } from './H2Tables';
import { CaptureTables } from './capture/CaptureTables';
import { splitKeyLog } from './capture/key-log-file';
import { takeWakeActions } from '../build/wake-actions';
import { receiveFiles } from './early-files';
import { replayLink, replaySnippet } from './replay';
import './inspect.css';

/** The share-link id of this page (`#pg=inspect&s=...`). */
export const INSPECT_SHARE_ID = 'inspect';
/**
 * Longest share link offered, in characters of the encoded fragment. Our own budget, not a standard:
 * browsers take far longer URLs, but chat and mail clients cut long links, and a cut link cannot be read.
 */
export const MAX_SHARE_CHARS = 32_000;
/** Largest input read: 10 MB, a big HAR from a busy page. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/**
 * A dropped file's exact bytes as a share link's `code`, and back. The text box cannot carry them: a textarea
 * turns every CRLF into LF, so a link made from it lost the very CRs (or bare LFs) the reader was asking about.
 * Bytes that are UTF-8 travel as that text (the link stays short, and the box shows it); others (a pcap) as one
 * character per byte (U+0000-U+00FF), marked `encoding: 'latin1'`.
 */
export function fileToShareCode(bytes: Uint8Array): { code: string; encoding?: 'latin1' } {
  try {
    return { code: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    let code = '';
    for (let i = 0; i < bytes.length; i += 8192) code += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return { code, encoding: 'latin1' };
  }
}

/** The inverse of fileToShareCode; undefined when a latin1 code holds a character over U+00FF (a damaged link). */
export function shareCodeToFile(code: string, encoding: unknown): Uint8Array | undefined {
  if (encoding !== 'latin1') return new TextEncoder().encode(code);
  const bytes = new Uint8Array(code.length);
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c > 0xff) return undefined;
    bytes[i] = c;
  }
  return bytes;
}

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
 * A finished store holding every event of a reading. Sized to the reading, not to the playground's 50,000-event
 * cap: that cap guards the page against a snippet that never stops emitting, while a reading is already whole
 * (and bounded by MAX_INPUT_BYTES). Under that cap a 5,380-entry HAR was silently cut after its 4,553rd entry.
 */
export function storeOf(recording: Recording): RecordingStore {
  const store = emptyStore(sourceInfos(recording), recording.steps.length);
  for (const parts of recordingChunks(recording)) appendParts(store, parts);
  store.finish();
  return store;
}

function emptyStore(sources: readonly SourceInfo[], events: number): RecordingStore {
  const store = new RecordingStore({ maxEvents: Math.max(MAX_RECORDING_EVENTS, events) });
  for (const info of sources) store.addSource(info);
  return store;
}

function appendParts(store: RecordingStore, parts: readonly ChunkPart[]): void {
  for (const part of parts) store.append(part.sourceId, part.events);
}

/** A reading as the page shows it: what was found, and the store its recording went into. */
interface Reading {
  readonly result: Omit<InspectResult, 'recording'>;
  readonly store?: RecordingStore;
}

let worker: Worker | undefined;
let nextId = 0;

/**
 * After the browser has drawn a frame (or at once in a hidden tab, which draws none): what the page does between
 * two pieces of a reading, so no frame holds more than one.
 */
function afterFrame(then: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') setTimeout(then, 0);
  else requestAnimationFrame(() => setTimeout(then, 0));
}

/**
 * Reads `input` in the worker (or, where module workers are unavailable, here). The worker answers in pieces
 * (chunks.ts), one when asked: each chunk is appended in its own task and the next asked for after a frame, so no
 * one task copies the whole recording. `onProgress` hears how many events are in of how many.
 */
async function runInspect(input: WorkerRequest['input'], onProgress?: (received: number, total: number) => void): Promise<Reading> {
  if (typeof Worker !== 'undefined') {
    try {
      worker ??= new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'roundtrip-inspect' });
      const id = ++nextId;
      const w = worker;
      return await new Promise<Reading>((resolve, reject) => {
        let reading: { result: Reading['result']; store?: RecordingStore; total: number } | undefined;
        const next = () => {
          if (id === nextId) return w.postMessage({ id, type: 'next' } satisfies WorkerNext);
          // A newer reading has taken the worker: this one ends here, and lets go of what it holds (the page drops
          // its answer anyway).
          w.removeEventListener('message', onMessage);
          resolve({ result: reading!.result });
        };
        const onMessage = (event: MessageEvent<WorkerMessage>) => {
          const message = event.data;
          if (message.id !== id) return;
          if (message.type === 'result') {
            reading = { result: message.result, total: message.events, ...(message.sources ? { store: emptyStore(message.sources, message.events) } : {}) };
            if (message.more) return next();
          } else if (message.type === 'replay') {
            const replay = reading!.result.replay;
            reading!.result = { ...reading!.result, replay: { from: message.from, exchanges: [...(replay?.exchanges ?? []), ...message.exchanges] } };
            return afterFrame(next);
          } else if (message.type === 'chunk') {
            if (reading?.store) {
              appendParts(reading.store, message.parts);
              onProgress?.(reading.store.length, reading.total);
            }
            return afterFrame(next);
          }
          w.removeEventListener('message', onMessage);
          reading?.store?.finish();
          resolve(reading!);
        };
        w.addEventListener('message', onMessage);
        w.addEventListener('error', (e) => reject(new Error(e.message || 'the worker failed')), { once: true });
        w.postMessage({ id, input } satisfies WorkerRequest);
      });
    } catch {
      worker = undefined;
    }
  }
  const { inspectAsync } = await import('./inspect');
  const { recording, ...result } = await inspectAsync({ ...input, text: requestText(input) });
  return { result, ...(recording ? { store: storeOf(recording) } : {}) };
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

function Result({ result, fileName }: { result: Reading['result']; fileName: string | undefined }) {
  const label = FORMATS.find((f) => f.id === result.format)?.label;
  return (
    <section aria-label="What the inspector read" data-testid="inspect-result" data-format={result.format ?? 'none'}>
      {label && (
        <p>
          <strong>{label}</strong>
          {fileName ? ` from ${fileName}` : ''}. {result.detected ? `Detected: ${result.reason}` : result.reason}
        </p>
      )}
      <div role="alert">
        {result.problems.map((p) => (
          <p key={`${p.where}: ${p.message}`} className="rt-inspect-problem" data-testid="inspect-problem">
            {p.where ? <strong>At {p.where}: </strong> : null}
            {p.message}
          </p>
        ))}
      </div>
      {result.notes.length > 0 && (
        <ul className="rt-inspect-notes">
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {result.verdicts && <Verdicts verdicts={result.verdicts} />}
      {result.curl && (
        <details open data-testid="inspect-curl-fields">
          <summary>
            {result.curl.version}: {countOf(result.curl.messages.length, 'message')}, as fields
          </summary>
          {result.curl.messages.map((m, i) => (
            <FieldTable
              // biome-ignore lint/suspicious/noArrayIndexKey: messages are in capture order and never reordered
              key={i}
              caption={
                <>
                  {m.from === 'client' ? 'Request' : 'Response'}
                  {m.streamId !== undefined ? ` on stream ${m.streamId}` : ''}: <code>{m.startLine}</code>
                </>
              }
              fields={m.fields}
            />
          ))}
        </details>
      )}
      {result.h2 && <H2OneSide h2={result.h2} />}
      {result.h2Connection && <H2Connection connection={result.h2Connection} />}
      {result.capture && <CaptureTables capture={result.capture} />}
      {result.hpack && (
        <details open>
          <summary>
            HPACK: {countOf(result.hpack.fields.length, 'field')} decoded
            {result.hpack.blocks.length > 1 ? ` from ${result.hpack.blocks.length} blocks (${result.hpack.blocks.map((b) => b.length).join(' + ')})` : ''}
          </summary>
          <FieldTable testId="inspect-fields" fields={result.hpack.fields} />
          <p>
            Dynamic table after the {result.hpack.blocks.length > 1 ? 'last block' : 'block'}: {result.hpack.table.size} of{' '}
            {countOf(result.hpack.table.maxSize, 'octet')}, {countOf(result.hpack.table.entries.length, 'entry', 'entries')}
            {result.hpack.table.evicted > 0 ? ` (${countOf(result.hpack.table.evicted, 'entry', 'entries')} evicted to make room)` : ''}
            {result.hpack.table.entries.length > 0
              ? `: ${result.hpack.table.entries.map((e, i) => `[${62 + i}] ${e.name}: ${e.value} (inserted #${e.inserted})`).join('; ')}`
              : ''}
            .
          </p>
        </details>
      )}
      {result.har && <HarChecks har={result.har} />}
    </section>
  );
}

/** Name/value rows of a field section, in order (a message or block may repeat a field). */
function FieldTable({
  fields,
  caption,
  testId,
}: {
  fields: readonly { readonly name: string; readonly value: string }[];
  caption?: ReactNode;
  testId?: string;
}) {
  return (
    <table data-testid={testId}>
      {caption !== undefined && <caption>{caption}</caption>}
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a field may repeat; its position is its identity
          <tr key={i}>
            <td>
              <code>{f.name}</code>
            </td>
            <td>
              <code>{f.value}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Verdicts({ verdicts }: { verdicts: InspectResult['verdicts'] & object }) {
  return (
    <table data-testid="inspect-verdicts">
      <caption>
        The engine's verdicts, strict (rejects every ambiguity) and lenient (repairs what RFC 9112 allows, and also accepts some of what it tells a server to
        answer with 400: whitespace before a colon, §5.1; a missing, repeated or invalid Host, §3.2)
      </caption>
      <thead>
        <tr>
          <th scope="col">Side</th>
          <th scope="col">Mode</th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      <tbody>
        {verdicts.map((v) => (
          <tr key={`${v.from}-${v.strict}`} data-verdict={`${v.from}-${v.strict ? 'strict' : 'lenient'}`}>
            <th scope="row">{v.from === 'client' ? 'Requests' : 'Responses'}</th>
            <td>{v.strict ? 'strict' : 'lenient'}</td>
            <td>
              {v.error
                ? `Rejected at line ${v.error.line}, column ${v.error.column} (byte ${v.error.offset}): ${v.error.message}`
                : `${v.messages} whole ${v.messages === 1 ? 'message' : 'messages'} read${v.bodiesLeftOut ? ` (${v.bodiesLeftOut === v.messages ? (v.messages === 1 ? 'its head only' : 'heads only') : `${v.bodiesLeftOut} of them heads only`}: curl did not print the body)` : ''}${v.incomplete ? ', then the capture ends inside a message' : ''}.`}
              {!v.strict && v.tolerated.length > 0 && ` Let through: ${v.tolerated.map((t) => `${t.code} at line ${t.line}, column ${t.column}`).join('; ')}.`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function HarChecks({ har }: { har: NonNullable<InspectResult['har']> }) {
  const errors = har.checks.filter((c) => c.level === 'error').length;
  return (
    <details open data-testid="inspect-har-checks">
      <summary>
        HAR 1.2 checks: {errors === 0 ? 'no errors' : countOf(errors, 'error')}, {countOf(har.checks.length - errors, 'warning')}
        {har.versions.length > 0 ? ` (protocols: ${har.versions.join(', ')})` : ''}
      </summary>
      {har.checks.length === 0 ? (
        <p>Every required field is there with the right type, the timings add up, and every pageref names a page.</p>
      ) : (
        <ul>
          {har.checks.slice(0, 200).map((c) => (
            <li key={`${c.path}: ${c.message}`}>
              {c.level === 'error' ? 'Error' : 'Warning'} at <code>{c.path}</code>: {c.message}
            </li>
          ))}
          {har.checks.length > 200 && <li>… and {har.checks.length - 200} more.</li>}
        </ul>
      )}
    </details>
  );
}
