import { describe, expect, it } from 'vitest';
import { crc32 as nodeCrc32 } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { crc32, createZip } from './zip';

const MODIFIED = new Date(2026, 10, 21, 18, 30, 14);

function readWithYauzl(zip: Uint8Array): Promise<Record<string, { text: string; modified: Date }>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(zip), { lazyEntries: true, validateEntrySizes: true }, (err, file) => {
      if (err || !file) return reject(err);
      const out: Record<string, { text: string; modified: Date }> = {};
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out[entry.fileName] = { text: Buffer.concat(chunks).toString('utf8'), modified: entry.getLastModDate() };
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe('zip writer', () => {
  it('computes CRC-32 as ZIP does', () => {
    // The check value of CRC-32/ISO-HDLC for "123456789".
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
    const random = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251);
    expect(crc32(random)).toBe(nodeCrc32(random));
  });

  it('writes an archive another reader extracts, names, contents and date intact', async () => {
    const files = {
      'package.json': '{ "name": "x" }\n',
      'src/snippet.ts': "console.log('héllo ✓');\n",
      'vendor/roundtrip/empty.txt': '',
    };
    const zip = createZip(
      Object.entries(files).map(([path, data]) => ({ path, data })),
      MODIFIED,
    );
    const read = await readWithYauzl(zip);
    expect(Object.fromEntries(Object.entries(read).map(([k, v]) => [k, v.text]))).toEqual(files);
    // DOS time has two-second resolution.
    expect(read['package.json']!.modified.getTime()).toBe(new Date(2026, 10, 21, 18, 30, 14).getTime());
  });

  it('passes unzip -t, the Info-ZIP integrity test', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-zip-'));
    const file = join(dir, 'p.zip');
    writeFileSync(
      file,
      createZip(
        [
          { path: 'a/b.txt', data: 'x'.repeat(10_000) },
          { path: 'c.bin', data: new Uint8Array([0, 255, 1]) },
        ],
        MODIFIED,
      ),
    );
    const report = execFileSync('unzip', ['-t', file], { encoding: 'utf8' });
    expect(report).toContain('No errors detected');
    expect(readFileSync(file).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });

  it('is deterministic and refuses unsafe or duplicate paths', () => {
    const entries = [{ path: 'x.txt', data: 'same' }];
    expect(createZip(entries, MODIFIED)).toEqual(createZip(entries, MODIFIED));
    expect(() => createZip([{ path: '../evil', data: '' }], MODIFIED)).toThrow('"../evil" is not a relative path');
    expect(() => createZip([{ path: '/abs', data: '' }], MODIFIED)).toThrow('not a relative path');
    expect(() =>
      createZip(
        [
          { path: 'a', data: '' },
          { path: 'a', data: '' },
        ],
        MODIFIED,
      ),
    ).toThrow('"a" appears twice');
  });
});
