/**
 * A minimal ZIP writer: stored entries (no compression), CRC-32, UTF-8 names, one central directory.
 * Enough for a downloaded project of a few text files, without shipping a compression library; the browser's
 * CompressionStream speaks deflate but not the ZIP container, and a project of source files is small anyway.
 *
 * Layout per PKWARE's APPNOTE.TXT (6.3.x): for each file a local header (§4.3.7) then its bytes; then one
 * central directory header per file (§4.3.12); then the end of central directory record (§4.3.16).
 * No ZIP64: archives stay far below 4 GiB and 65,535 entries, and `createZip` refuses anything larger.
 */

export interface ZipEntry {
  /** Path inside the archive, '/'-separated, no leading slash. */
  path: string;
  data: string | Uint8Array;
}

/** CRC-32 as ZIP uses it (the IEEE 802.3 polynomial, reflected: 0xEDB88320), table-driven. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time (APPNOTE §4.4.6): 2-second resolution, years from 1980. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

const UTF8_NAMES = 0x0800; // general purpose flag bit 11: names are UTF-8 (APPNOTE appendix D)
const VERSION = 20; // 2.0: the version that introduced the features used here

/**
 * Builds a .zip archive. `modified` stamps every entry; pass the current time (injected, so a test gets the
 * same bytes every run).
 */
export function createZip(entries: readonly ZipEntry[], modified: Date): Uint8Array {
  if (entries.length > 0xffff) throw new RangeError(`createZip: ${entries.length} entries is more than a ZIP without ZIP64 holds (65,535).`);
  const encoder = new TextEncoder();
  const { time, date } = dosDateTime(modified);
  const seen = new Set<string>();
  const files = entries.map((entry) => {
    if (!entry.path || entry.path.startsWith('/') || entry.path.split('/').some((part) => part === '..' || part === ''))
      throw new Error(`createZip: "${entry.path}" is not a relative path inside the archive.`);
    if (seen.has(entry.path)) throw new Error(`createZip: "${entry.path}" appears twice.`);
    seen.add(entry.path);
    const name = encoder.encode(entry.path);
    const data = typeof entry.data === 'string' ? encoder.encode(entry.data) : entry.data;
    return { name, data, crc: crc32(data) };
  });
  const localSize = files.reduce((n, f) => n + 30 + f.name.length + f.data.length, 0);
  const centralSize = files.reduce((n, f) => n + 46 + f.name.length, 0);
  if (localSize + centralSize + 22 > 0xffffffff) throw new RangeError('createZip: the archive would exceed 4 GiB, which needs ZIP64.');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (v: number) => {
    view.setUint16(at, v, true);
    at += 2;
  };
  const u32 = (v: number) => {
    view.setUint32(at, v, true);
    at += 4;
  };
  const bytes = (b: Uint8Array) => {
    out.set(b, at);
    at += b.length;
  };
  const offsets: number[] = [];
  for (const f of files) {
    offsets.push(at);
    u32(0x04034b50); // local file header signature
    u16(VERSION);
    u16(UTF8_NAMES);
    u16(0); // method 0: stored
    u16(time);
    u16(date);
    u32(f.crc);
    u32(f.data.length); // compressed size = size, when stored
    u32(f.data.length);
    u16(f.name.length);
    u16(0); // no extra field
    bytes(f.name);
    bytes(f.data);
  }
  const centralStart = at;
  files.forEach((f, i) => {
    u32(0x02014b50); // central directory header signature
    u16(VERSION); // made by: MS-DOS compatible attributes, version 2.0
    u16(VERSION);
    u16(UTF8_NAMES);
    u16(0);
    u16(time);
    u16(date);
    u32(f.crc);
    u32(f.data.length);
    u32(f.data.length);
    u16(f.name.length);
    u16(0); // extra
    u16(0); // comment
    u16(0); // disk number start
    u16(0); // internal attributes
    u32(0); // external attributes
    u32(offsets[i]!);
    bytes(f.name);
  });
  u32(0x06054b50); // end of central directory signature
  u16(0); // this disk
  u16(0); // disk with the central directory
  u16(files.length);
  u16(files.length);
  u32(centralSize);
  u32(centralStart);
  u16(0); // comment length
  return out;
}
