/**
 * Monaco's code and its TypeScript worker, requested together, once, when a reader is about to edit (the pointer
 * is over the code, or they clicked into it; never before interaction, never on touch screens: store/browser.ts).
 *
 * The worker's script is the biggest part of the editor (7 MB: TypeScript and the standard library's
 * declarations) and runs on its own thread, so it is started here, while Monaco's code (5 MB) downloads and runs
 * on the page's thread, instead of after, when Monaco's TypeScript support first asks for a worker
 * (monaco.ts hands it this one: takeTypeScriptWorker).
 */
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';

let monacoCode: Promise<typeof import('./monaco')> | undefined;
let spareWorker: Worker | undefined;
let workerTaken = false;

/** Monaco's module (editor/monaco.ts), requested once; a failed download is tried again by the next caller. */
export function loadMonaco(): Promise<typeof import('./monaco')> {
  if (!monacoCode) {
    if (!spareWorker && !workerTaken) spareWorker = new TsWorker();
    monacoCode = import('./monaco');
    monacoCode.catch(() => (monacoCode = undefined));
  }
  return monacoCode;
}

/** The TypeScript worker started by loadMonaco, or a new one once that is taken (Monaco asks again after a restart). */
export function takeTypeScriptWorker(): Worker {
  const worker = spareWorker ?? new TsWorker();
  spareWorker = undefined;
  workerTaken = true;
  return worker;
}
