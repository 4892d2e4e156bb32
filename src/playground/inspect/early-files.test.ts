// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_FILES_SCRIPT, receiveFiles } from './early-files';

/** A drop or drag event as a browser makes it: `types` lists 'Files' while dragging, `files` is filled on the drop. */
function drag(type: string, files: File[], target: EventTarget = document.body): Event {
  const event = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files: type === 'drop' ? files : [], dropEffect: 'none' } });
  target.dispatchEvent(event);
  return event;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('files dropped or chosen before the inspector wakes', () => {
  it('are kept in order by the inline script, which wakes the island, and handed over once it is awake', () => {
    // The page's own script text, run on its own: it must not depend on anything outside itself.
    new Function(CAPTURE_FILES_SCRIPT)();
    document.body.innerHTML =
      '<h1>Inspect</h1><astro-island><div data-playground-id="inspect"><textarea></textarea><input type="file"></div></astro-island><input type="file" id="other">';
    const island = document.querySelector('astro-island')!;
    let wakes = 0;
    island.addEventListener('rt-wake', () => wakes++);
    const a = new File(['a'], 'a.har');
    const b = new File(['b'], 'b.txt');
    const c = new File(['c'], 'c.pcap');

    // A drag over the heading, far from the text box: the page accepts it (dragover cancelled) and marks itself.
    drag('dragenter', [a], document.querySelector('h1')!);
    expect(drag('dragover', [a], document.querySelector('h1')!).defaultPrevented).toBe(true);
    expect(document.documentElement.dataset.rtDrop).toBe('over');
    // The drop is kept (and the browser's default, opening the file in place of the page, cancelled).
    expect(drag('drop', [a], document.querySelector('h1')!).defaultPrevented).toBe(true);
    expect(document.documentElement.dataset.rtDrop).toBeUndefined();
    // A file chosen in the inspector's input is kept too; one chosen in another input on the page is not ours.
    const input = document.querySelector<HTMLInputElement>('[data-playground-id] input[type=file]')!;
    Object.defineProperty(input, 'files', { value: [b, c], configurable: true });
    input.dispatchEvent(new Event('change', { bubbles: true }));
    const other = document.querySelector<HTMLInputElement>('#other')!;
    Object.defineProperty(other, 'files', { value: [c] });
    other.dispatchEvent(new Event('change', { bubbles: true }));
    expect(wakes).toBeGreaterThanOrEqual(2);

    const got: string[][] = [];
    const stop = receiveFiles(window, (files) => got.push(files.map((f) => f.name)));
    expect(got).toEqual([['a.har'], ['b.txt', 'c.pcap']]);
    // Awake: a drop goes straight to the island, once.
    drag('drop', [c]);
    expect(got).toEqual([['a.har'], ['b.txt', 'c.pcap'], ['c.pcap']]);
    stop();
    // Another island (a remount) gets what came while none was listening.
    drag('drop', [a]);
    const again: string[] = [];
    receiveFiles(window, (files) => again.push(...files.map((f) => f.name)))();
    expect(again).toEqual(['a.har']);
  });

  it('leaves drags without files (text) to the browser', () => {
    new Function(CAPTURE_FILES_SCRIPT)();
    const event = new Event('dragover', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'dataTransfer', { value: { types: ['text/plain'], files: [] } });
    document.body.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });
});
