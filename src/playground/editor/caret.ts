/**
 * Where in the code the reader clicked or left the text cursor, as offsets into the code's text, so the editor
 * that replaces the static code (or the directive's editable stand-in) opens with the cursor in the same place.
 * The static code is Shiki's HTML, one element per token: an offset is the length of the text from the start
 * of the code to the point.
 */
import type { TextSelection } from './monaco';

/** The number of characters of `root`'s text before the point (`node`, `offset`); undefined when outside `root`. */
export function textOffset(root: Node, node: Node, offset: number): number | undefined {
  if (node !== root && !root.contains(node)) return undefined;
  const range = root.ownerDocument!.createRange();
  range.setStart(root, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

/** The text offset under the point (x, y) in `root`, where the browser can say (caretPositionFromPoint, or WebKit's caretRangeFromPoint). */
export function caretAtPoint(root: Element, x: number, y: number): number | undefined {
  const doc = root.ownerDocument as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
    caretRangeFromPoint?: (x: number, y: number) => Range | null;
  };
  const position = doc.caretPositionFromPoint?.(x, y);
  if (position) return textOffset(root, position.offsetNode, position.offset);
  const range = doc.caretRangeFromPoint?.(x, y);
  return range ? textOffset(root, range.startContainer, range.startOffset) : undefined;
}

/** The document's selection as offsets into `root`'s text, when it lies inside `root`. */
export function selectionIn(root: Element): TextSelection | undefined {
  const selection = root.ownerDocument.getSelection();
  if (!selection || selection.rangeCount === 0) return undefined;
  const range = selection.getRangeAt(0);
  const start = textOffset(root, range.startContainer, range.startOffset);
  const end = textOffset(root, range.endContainer, range.endOffset);
  return start === undefined || end === undefined ? undefined : { start, end };
}
