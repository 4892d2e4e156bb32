import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeShareState, encodeShareState, SHARE_FORMAT_VERSION } from './codec';
import { fromBase64Url, toBase64Url } from './base64url';
import { formatShareHash, missingTargetNotice, readShareHash } from './hash';

describe('base64url', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
      }),
    );
  });
  it('matches the platform encoder with the URL alphabet and no padding', () => {
    const bytes = new Uint8Array([251, 255, 191, 0, 1, 2, 3]);
    const platform = Buffer.from(bytes).toString('base64url');
    expect(toBase64Url(bytes)).toBe(platform);
  });
  it('rejects characters outside the alphabet', () => {
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull();
  });
});

describe('share codec', () => {
  it('round-trips state, keeping only what is set', async () => {
    const state = { code: 'console.log("héllo ✓")\n', options: { retry: 2 }, seed: 42, view: 'timeline' };
    const encoded = await encodeShareState(state);
    expect(encoded.startsWith(`${SHARE_FORMAT_VERSION}.`)).toBe(true);
    expect(await decodeShareState(encoded)).toEqual({ ok: true, state, version: 1 });
    const bare = await decodeShareState(await encodeShareState({ code: 'x', options: {} }));
    expect(bare).toEqual({ ok: true, state: { code: 'x' }, version: 1 });
  });

  it('round-trips arbitrary code', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (code) => {
        const decoded = await decodeShareState(await encodeShareState({ code }));
        expect(decoded.ok && decoded.state.code).toBe(code);
      }),
      { numRuns: 50 },
    );
  });

  it('compresses repetitive code', async () => {
    const code = 'const q = useQuery({ queryKey: ["todos"], queryFn });\n'.repeat(40);
    expect((await encodeShareState({ code })).length).toBeLessThan(code.length / 10);
  });

  it('names the problem with a damaged or foreign link', async () => {
    const good = await encodeShareState({ code: 'console.log(1)' });
    expect(await decodeShareState('hello')).toMatchObject({ ok: false, code: 'malformed' });
    expect(await decodeShareState('99.' + good.slice(2))).toMatchObject({ ok: false, code: 'unknown-version' });
    expect(await decodeShareState(good.slice(0, good.length - 6))).toMatchObject({ ok: false, code: 'corrupt' });
    expect(await decodeShareState('1.')).toMatchObject({ ok: false, code: 'corrupt' });
    const notState = `1.${toBase64Url(await compress(JSON.stringify([1, 2])))}`;
    expect(await decodeShareState(notState)).toMatchObject({ ok: false, code: 'invalid' });
    const badSeed = `1.${toBase64Url(await compress(JSON.stringify({ code: '', seed: 'x' })))}`;
    expect(await decodeShareState(badSeed)).toMatchObject({ ok: false, code: 'invalid', message: expect.stringContaining('seed') });
  });
});

describe('visualizer step in share state', () => {
  it('round-trips view and step, and omits them when unset', async () => {
    const state = { code: 'x', view: 'frames', step: 12 };
    expect(await decodeShareState(await encodeShareState(state))).toEqual({ ok: true, state, version: 1 });
    expect(await decodeShareState(await encodeShareState({ code: 'x', step: 0 }))).toEqual({ ok: true, state: { code: 'x', step: 0 }, version: 1 });
  });

  it('keeps decoding links made before steps existed', async () => {
    const old = `1.${toBase64Url(await compress(JSON.stringify({ code: 'old', view: 'timeline' })))}`;
    expect(await decodeShareState(old)).toEqual({ ok: true, state: { code: 'old', view: 'timeline' }, version: 1 });
  });

  it('rejects a step that is not a whole number', async () => {
    for (const step of [-1, 1.5, '3', null]) {
      const link = `1.${toBase64Url(await compress(JSON.stringify({ code: '', step })))}`;
      expect(await decodeShareState(link)).toMatchObject({ ok: false, code: 'invalid', message: expect.stringContaining('"step"') });
    }
  });
});

describe('share hash', () => {
  it('reads what it writes and ignores ordinary anchors', () => {
    const hash = formatShareHash({ id: 'hello-wire', encoded: '1.abc-_' });
    expect(readShareHash(hash)).toEqual({ id: 'hello-wire', encoded: '1.abc-_' });
    expect(readShareHash('#try-it')).toBeNull();
    // Open in playground adds the page it came from; a title with spaces and quotes survives the trip.
    const from = formatShareHash({ id: 'hello-wire', encoded: '1.abc', from: 'Retries & "errors"' });
    expect(readShareHash(from)).toEqual({ id: 'hello-wire', encoded: '1.abc', from: 'Retries & "errors"' });
    expect(readShareHash('')).toBeNull();
  });

  it('a link cut off after the playground id still names the playground, and decodes to a "damaged" error', async () => {
    const cut = readShareHash('#pg=hello-wire&s=1.q1YqzsjPS0nMSVWyUirJLy1R'.slice(0, '#pg=hello-wire'.length));
    expect(cut).toEqual({ id: 'hello-wire', encoded: '' });
    const result = await decodeShareState(cut!.encoded);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    expect(!result.ok && result.message).toMatch(/damaged.*cut off/);
  });

  it('a link to a playground the page does not have gets a notice naming both', () => {
    expect(missingTargetNotice('#pg=hello-wire&s=1.abc', ['hello-wire', 'dedup'])).toBeNull();
    expect(missingTargetNotice('#section-2', ['hello-wire'])).toBeNull();
    expect(missingTargetNotice('#pg=hello-wir&s=1.abc', ['hello-wire', 'dedup'])).toBe(
      'The shared link is for a playground named "hello-wir", which is not on this page. This page\'s playgrounds are "hello-wire", "dedup": the link may have been mistyped or made for an older version of the page.',
    );
  });

  it('a payload cut off mid-way says it is damaged', async () => {
    const whole = await encodeShareState({ code: "console.log('a snippet long enough to be cut in the middle of its data')" });
    const result = await decodeShareState(whole.slice(0, Math.floor(whole.length / 2)));
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
  });
});

async function compress(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
