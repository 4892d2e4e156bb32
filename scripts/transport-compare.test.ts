/**
 * The figures content/docs/http/connections.mdx quotes from scripts/transport-compare.ts, checked against the
 * same simulations. The simulator runs on virtual time with seeded loss, so each figure is exact: when the
 * transport model changes, this fails with the sentences the page should now say, rather than the page
 * drifting from the script unnoticed (as it once did). Each phrase is the page's own wording around a figure,
 * so a figure cannot move to another claim either; the failure lists every phrase the page lacks, with the
 * figures of the current run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPARISONS, fmt, versus } from './transport-compare';

const PAGE = 'content/docs/http/connections.mdx';
/** The page's prose with every run of white space (line breaks, no-break spaces) as one space. */
const page = readFileSync(PAGE, 'utf8').replace(/\s+/g, ' ');
/** The seeds the page says each comparison ran over. */
const SEEDS = 40;

const compare = (name: string) => {
  const run = COMPARISONS[name];
  if (!run) throw new Error(`scripts/transport-compare.ts has no comparison '${name}'`);
  return versus(run, SEEDS);
};

/** Fails listing each phrase the page lacks, worded as the page should now say it. */
const expectQuoted = (phrases: readonly string[]): void => {
  const missing = phrases.map((p) => p.replace(/\s+/g, ' ')).filter((p) => !page.includes(p));
  expect(missing, `${PAGE} should say (figures from this run of the simulations)`).toEqual([]);
};

describe(`${PAGE}: the transport comparisons it quotes`, () => {
  it('1 MiB at 1 % loss: medians, means and wins (section 2)', async () => {
    const { http2, http3 } = await compare('download, 1 %');
    expectQuoted([
      `Over ${SEEDS} seeds at 1 % loss, a 1 MiB download`,
      `took ${fmt(http2.median)} ms over HTTP/2 and ${fmt(http3.median)} ms over HTTP/3`,
      `(medians; means ${fmt(http2.mean)} and ${fmt(http3.mean)} ms)`,
      `HTTP/2 faster in ${http2.wins} seeds and HTTP/3 in ${http3.wins}.`,
    ]);
  });

  it('the small page at 1 % loss: HTTP/3 first in most seeds, one round trip ahead (section 4)', async () => {
    const { http2, http3 } = await compare('small page, 1 %');
    expectQuoted([
      `over ${SEEDS} seeds HTTP/3 finished first in ${http3.wins} of them`,
      `with medians of ${fmt(http3.median)} ms against ${fmt(http2.median)}, one round trip apart`,
    ]);
    // "One round trip apart": the handshake round trip QUIC saves, on a 100 ms path.
    expect(http2.median - http3.median).toBeGreaterThan(90);
    expect(http2.median - http3.median).toBeLessThan(110);
  });

  it('1 MiB at 2 % and 5 % loss (section 5)', async () => {
    const at2 = await compare('download, 2 %');
    const at5 = await compare('download, 5 %');
    expectQuoted([
      `Three comparisons that exercise loss recovery instead (the same path, ${SEEDS} seeds, medians)`,
      `${fmt(at2.http2.median)} ms over HTTP/2 against ${fmt(at2.http3.median)} over HTTP/3 at 2 %`,
      `and ${fmt(at5.http2.median)} against ${fmt(at5.http3.median)} at 5 %.`,
      `HTTP/2 was faster in ${at2.http2.wins} and ${at5.http2.wins} of the ${SEEDS} seeds`,
    ]);
  });

  it('the heavy page: lossless, at 2 % and at 5 % loss (section 5)', async () => {
    const lossless = await compare('heavy page, 0 %');
    const at2 = await compare('heavy page, 2 %');
    const at5 = await compare('heavy page, 5 %');
    expectQuoted([
      `lossless, HTTP/3 is ${fmt(lossless.http2.median - lossless.http3.median)} ms ahead (${fmt(lossless.http3.median)} ms against ${fmt(lossless.http2.median)})`,
      `at 2 % loss the medians are ${fmt(at2.http2.median)} ms over HTTP/2 and ${fmt(at2.http3.median)} over HTTP/3 (HTTP/2 faster in ${at2.http2.wins} seeds)`,
      `at 5 % ${fmt(at5.http2.median)} and ${fmt(at5.http3.median)} (${at5.http2.wins} seeds)`,
    ]);
  });

  it('2 % in bursts of three: both pages, HTTP/3 faster in more seeds but a little slower in the median (section 5)', async () => {
    const download = await compare('download, 2 %, bursts of 3');
    const heavy = await compare('heavy page, 2 %, bursts of 3');
    expectQuoted([
      `(1 MiB: ${fmt(download.http2.median)} and ${fmt(download.http3.median)} ms; the heavy page: ${fmt(heavy.http2.median)} and ${fmt(heavy.http3.median)})`,
      `HTTP/3 is faster in ${download.http3.wins} and ${heavy.http3.wins} seeds, though its medians are a little higher`,
    ]);
    for (const { http2, http3 } of [download, heavy]) {
      expect(http3.wins).toBeGreaterThan(http2.wins);
      expect(http3.median).toBeGreaterThan(http2.median);
    }
  });
});
