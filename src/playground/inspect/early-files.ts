/**
 * Files dropped anywhere on /inspect/, or chosen with its file input, including before the inspector's island
 * has hydrated (it wakes on interaction, so its code may still be loading when a file arrives).
 *
 * `captureFiles` runs as an inline script in the page (pages/inspect.astro puts this function's source there),
 * so it listens from the moment the page is parsed: a drop on any part of the page (not only the text box) and
 * a file chosen in the input are kept, in order, in `window.__rtInspectFiles`, and the island is woken (an
 * `rt-wake` event on it: build/interaction-directive.ts). Once awake the island takes the queue and gets every
 * later file straight away (`receiveFiles`), so there is one path for files before and after hydration, and a
 * file is never handled twice. This is what the playground does for presses (build/wake-actions.ts).
 *
 * Without it, a browser opens a file dropped outside the text box in place of the page, and a file dropped or
 * chosen before hydration was silently ignored (issue #30 item 2).
 */

/** What the page keeps on `window.__rtInspectFiles`. */
export interface EarlyFiles {
  /** Each drop or choice, oldest first, until the island takes them. */
  readonly queue: File[][];
  /** Set by the awake island: files go straight to it. */
  deliver?: (files: File[]) => void;
  installed?: boolean;
}

type WithFiles = Window & { __rtInspectFiles?: EarlyFiles };

/**
 * Installs the page-wide listeners (once per window). Self-contained, with no imports and no references outside
 * itself, because the page inlines its source text.
 */
export function captureFiles(win: Window): void {
  const w = win as WithFiles;
  w.__rtInspectFiles ??= { queue: [] };
  const state = w.__rtInspectFiles;
  if (state.installed) return;
  state.installed = true;
  const doc = win.document;
  const root = doc.documentElement;
  const island = () => doc.querySelector('[data-playground-id="inspect"]')?.closest('astro-island');
  const wake = () => island()?.dispatchEvent(new Event('rt-wake'));
  // While dragging, a browser lists only the kinds of data (`types`); `files` is filled in on the drop.
  const hasFiles = (e: DragEvent) => !!e.dataTransfer && (Array.from(e.dataTransfer.types ?? []).includes('Files') || (e.dataTransfer.files?.length ?? 0) > 0);
  const hand = (files: File[]) => {
    if (files.length === 0) return;
    if (state.deliver) state.deliver(files);
    else {
      state.queue.push(files);
      wake();
    }
  };
  doc.addEventListener('dragenter', (e) => {
    // A file coming over the page is intent: wake the island now, so it is likely awake by the drop.
    if (hasFiles(e)) wake();
  });
  doc.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    // Cancelling dragover is what makes the page a drop target (HTML's drag-and-drop model).
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    root.dataset.rtDrop = 'over';
  });
  doc.addEventListener('dragleave', (e) => {
    // relatedTarget is null when the drag leaves the window (or is cancelled with Escape).
    if (!e.relatedTarget) delete root.dataset.rtDrop;
  });
  doc.addEventListener('drop', (e) => {
    delete root.dataset.rtDrop;
    if (!hasFiles(e)) return;
    // Without this the browser navigates to the dropped file and the page is gone.
    e.preventDefault();
    hand(Array.from(e.dataTransfer?.files ?? []));
  });
  doc.addEventListener(
    'change',
    (e) => {
      const input = e.target;
      if (!(input instanceof (win as Window & typeof globalThis).HTMLInputElement) || input.type !== 'file' || !input.closest('[data-playground-id="inspect"]'))
        return;
      hand(Array.from(input.files ?? []));
      // Choosing the same file again (captured anew since) must fire change again.
      input.value = '';
    },
    true,
  );
}

/** The page's inline script: `captureFiles` run at once on the page's window. */
export const CAPTURE_FILES_SCRIPT = `(${captureFiles.toString()})(window);`;

/**
 * The awake island's side: hands it every queued drop or choice, in order, then each new one as it comes.
 * Returns the undo (the queue fills again until another island takes it).
 */
export function receiveFiles(win: Window, deliver: (files: File[]) => void): () => void {
  captureFiles(win);
  const state = (win as WithFiles).__rtInspectFiles!;
  state.deliver = deliver;
  for (const files of state.queue.splice(0)) deliver(files);
  return () => {
    if (state.deliver === deliver) state.deliver = undefined;
  };
}
