/**
 * `curl -v` output back into the bytes on the wire. curl prints the request head it wrote with "> " before
 * each line, the response head it read with "< ", and its own remarks with "* "; with standard output
 * redirected it marks each body it sent or received as "} [19 bytes data]" or "{ [41 bytes data]" instead of
 * printing it. The response body itself goes to standard output, so in `curl -v URL 2>&1` it follows curl's
 * remarks, unprefixed.
 *
 * A head is rebuilt with CR LF after every line (HTTP/1.1 requires it, RFC 9112 §2.2; curl prints the CR,
 * a text box drops it). An unprefixed text after a response head is taken as that response's body. A
 * request body is never printed by `-v` (use `--trace-ascii` for that), so a request that announced one is
 * cut short, and the result says so instead of inventing its bytes.
 */

export interface CurlSegment {
  readonly from: 'client' | 'server';
  readonly text: string;
}

export interface CurlTranscript {
  readonly segments: readonly CurlSegment[];
  /** curl's "* " remarks, in order. */
  readonly info: readonly string[];
  /** What curl did not print, in words. */
  readonly notes: readonly string[];
}

/** Lines that are curl's: a prefix, a data marker, or TLS progress ("* TLSv1.3 (OUT)..."). */
const MARKER = /^[{}] \[(\d+) bytes data\]$/;

/** True when most non-empty lines of `text` carry curl's prefixes: the text is `curl -v` output. */
export function looksLikeCurl(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const prefixed = lines.filter((l) => /^[<>*] ?/.test(l) || MARKER.test(l.trimEnd())).length;
  return lines.some((l) => l.startsWith('> ')) && prefixed >= lines.length / 2;
}

export function parseCurl(text: string): CurlTranscript {
  const segments: { from: 'client' | 'server'; text: string }[] = [];
  const info: string[] = [];
  const notes: string[] = [];
  let current: { from: 'client' | 'server'; text: string; headDone: boolean; body: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const body = current.body.join('\n');
    segments.push({ from: current.from, text: current.text + body });
    current = undefined;
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const prefix = line.slice(0, 2);
    if (prefix === '> ' || line === '>' || prefix === '< ' || line === '<') {
      const from = line.startsWith('>') ? 'client' : 'server';
      if (!current || current.from !== from || current.headDone) {
        close();
        current = { from, text: '', headDone: false, body: [] };
      }
      const content = line.slice(2);
      current.text += `${content}\r\n`;
      if (content === '') current.headDone = true;
      continue;
    }
    if (line.startsWith('* ') || line === '*') {
      info.push(line.slice(2));
      continue;
    }
    const marker = MARKER.exec(line.trim());
    if (marker) {
      if (line.trim().startsWith('}'))
        notes.push(
          `curl sent a request body of ${marker[1]} bytes but did not print it (curl -v never does; --trace-ascii would): that request is shown without it.`,
        );
      continue;
    }
    // Output of the transfer itself (the response body on standard output), after the last response head.
    const last = current ?? segments.at(-1);
    if (last && last.from === 'server') {
      if (current) current.body.push(line);
      else segments[segments.length - 1] = { from: 'server', text: `${last.text}${line}` };
    }
  }
  close();
  // The body lines were split at LF: a body that ended without one (JSON from an API usually does) gains nothing,
  // and a trailing empty line from the paste is not part of it.
  return { segments: segments.map((s) => (s.from === 'server' ? { ...s, text: s.text.replace(/\n$/, '') } : s)), info, notes };
}
