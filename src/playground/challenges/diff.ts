/**
 * A line diff, for showing a challenge's reference solution against the reader's code: the longest common
 * subsequence of lines (dynamic programming, fine for snippets of a few hundred lines), as kept, removed and
 * added lines in order.
 */
export type DiffLine = { readonly kind: 'same' | 'removed' | 'added'; readonly text: string };

/** Longest inputs diffed line by line; past this the whole texts are shown as removed and added. */
const MAX_CELLS = 1_000_000;

export function diffLines(from: string, to: string): DiffLine[] {
  const a = from.replace(/\n$/, '').split('\n');
  const b = to.replace(/\n$/, '').split('\n');
  if (a.length * b.length > MAX_CELLS)
    return [...a.map((text) => ({ kind: 'removed' as const, text })), ...b.map((text) => ({ kind: 'added' as const, text }))];
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push({ kind: 'removed', text: a[i++]! });
    else out.push({ kind: 'added', text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) out.push({ kind: 'added', text: b[j++]! });
  return out;
}
