/** "1 field", "2 fields": a count with its noun in agreement, shared by the page and the worker (plural: when it is not noun + s). */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
