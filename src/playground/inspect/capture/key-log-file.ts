/**
 * A key log dropped with its capture: of the files dropped or chosen together, the one whose text is an NSS
 * key log (isKeyLog, tls.ts) is set aside as the capture's key log; the others are read as before. A key log
 * is a few hundred bytes per connection, so a file over 1 MB is not read as one. A key log dropped alone after
 * its capture is taken for the capture already open.
 */
import { isKeyLog } from './tls';

const MAX_KEY_LOG_BYTES = 1024 * 1024;

export async function splitKeyLog<F extends { readonly size: number; text(): Promise<string> }>(
  files: readonly F[],
  /** A key log alone is taken too (for the capture already open); else one file alone is left as it is. */
  options: { readonly alone?: boolean } = {},
): Promise<{ readonly files: readonly F[]; readonly keyLog?: string; readonly keyLogFile?: F }> {
  if (files.length === 0 || (files.length === 1 && !options.alone)) return { files };
  for (const [i, f] of files.entries()) {
    if (f.size > MAX_KEY_LOG_BYTES) continue;
    const text = await f.text();
    if (isKeyLog(text)) return { files: files.filter((_, j) => j !== i), keyLog: text, keyLogFile: f };
  }
  return { files };
}
