/**
 * A dropped file's bytes in a share link of the /inspect/ page (Inspector.tsx), and back: UTF-8 as text, anything
 * else one character per byte.
 */
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
