/**
 * A key log dropped with its capture: of the files dropped or chosen together, the one whose text is an NSS
 * key log (isKeyLog, tls.ts) is set aside as the capture's key log; the others are read as before. A key log
 * is a few hundred bytes per connection, so a file over 1 MB is not read as one.
 */
import { isKeyLog } from './tls';

const MAX_KEY_LOG_BYTES = 1024 * 1024;

export async function splitKeyLog<F extends { readonly size: number; text(): Promise<string> }>(
  files: readonly F[],
): Promise<{ readonly files: readonly F[]; readonly keyLog?: string; readonly keyLogFile?: F }> {
  if (files.length < 2) return { files };
  for (const [i, f] of files.entries()) {
    if (f.size > MAX_KEY_LOG_BYTES) continue;
    const text = await f.text();
    if (isKeyLog(text)) return { files: files.filter((_, j) => j !== i), keyLog: text, keyLogFile: f };
  }
  return { files };
}
