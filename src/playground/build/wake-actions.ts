/**
 * The presses an island received before it hydrated, kept in order on the island element as
 * `data-wake-action` (space-separated action names, from each pressed control's `data-action`).
 *
 * The `client:interaction` directive writes them; the island takes them once it has hydrated and performs each.
 * A list, not one value: a reader (or a test) can press Inspect and then Share link while the island's code is
 * still loading, and both presses must happen, not only the last.
 */

function read(el: HTMLElement): string[] {
  return (el.dataset.wakeAction ?? '').split(' ').filter(Boolean);
}

function write(el: HTMLElement, actions: string[]): void {
  if (actions.length > 0) el.dataset.wakeAction = actions.join(' ');
  else delete el.dataset.wakeAction;
}

/** Remembers a press of `action`. The same action pressed twice in a row is one press (a double click on Run). */
export function rememberWakeAction(el: HTMLElement, action: string): void {
  const actions = read(el);
  if (actions.at(-1) !== action) actions.push(action);
  write(el, actions);
}

/**
 * Forgets the latest remembered press, whose click is about to reach the hydrated island and be performed there.
 * Returns false when nothing was remembered any more: the island already took and performed the presses.
 */
export function forgetLatestWakeAction(el: HTMLElement): boolean {
  const actions = read(el);
  if (actions.length === 0) return false;
  actions.pop();
  write(el, actions);
  return true;
}

/** The remembered presses, oldest first, and forgets them: the island performs them now. */
export function takeWakeActions(el: HTMLElement | null | undefined): string[] {
  if (!el) return [];
  const actions = read(el);
  write(el, []);
  return actions;
}
