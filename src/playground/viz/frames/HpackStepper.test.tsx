// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HpackDecoder, createServer, createSimulation, http } from 'roundtrip/wire';
import type { Recording } from '../../recording/model';
import HpackStepper from './HpackStepper';
import { blocksAt, contextsOf, costOf, replayTables } from './hpack';
import { recordingOf } from './test-recording';

let recording: Recording;

beforeAll(async () => {
  const server = createServer({ routes: [http.get('/todos', () => Response.json([]))] });
  const sim = createSimulation({ server, httpVersion: '2', seed: 3 });
  // Big, new header names fill the 4,096-octet table within three requests, so later inserts evict.
  for (let i = 1; i <= 4; i++) {
    await sim.fetch('/todos', { headers: { [`x-big-${i}`]: `${'v'.repeat(1400)}${i}`, 'user-agent': 'roundtrip-test/1.0' } });
  }
  // Then a field larger than the whole table (RFC 7541 §4.4: it empties the table and is not added), in a
  // block long enough to need a CONTINUATION frame.
  await sim.fetch('/todos', { headers: { 'x-huge': '|'.repeat(20000) } });
  recording = recordingOf([sim]);
});

afterEach(cleanup);

const end = () => recording.steps.length - 1;

describe('HPACK stepper model', () => {
  it('the table after every representation equals HpackDecoder’s, and evictions are reported', () => {
    const contexts = contextsOf(recording);
    expect(contexts.map((c) => c.sender).sort()).toEqual(['client', 'server']);
    let evictions = 0;
    let checked = 0;
    for (const ctx of contexts) {
      const blocks = blocksAt(recording, ctx, end());
      expect(blocks.length).toBe(5);
      const tables = replayTables(blocks);
      blocks.forEach((block, b) => {
        block.steps.forEach((step, i) => {
          const decoder = new HpackDecoder();
          for (const earlier of blocks.slice(0, b)) decoder.decode(earlier.bytes);
          decoder.decode(block.bytes.subarray(0, step.end));
          const mine = tables[b]![i]!;
          expect(mine.entries).toEqual(decoder.tableState.entries);
          expect(mine.size).toBe(decoder.tableState.size);
          expect(mine.maxSize).toBe(decoder.tableState.maxSize);
          expect(mine.evicted.length).toBe(step.evicted);
          evictions += mine.evicted.length;
          checked++;
        });
      });
    }
    expect(checked).toBeGreaterThan(20);
    expect(evictions).toBeGreaterThan(0);
    // Our encoder sends a field larger than the table without indexing: the table stays as it was.
    const client = contexts.find((c) => c.sender === 'client')!;
    const blocks = blocksAt(recording, client, end());
    const last = blocks[4]!;
    const huge = last.steps.findIndex((st) => 'name' in st && st.name === 'x-huge');
    expect(last.steps[huge]!.representation).toBe('literal-without-indexing');
    const tables = replayTables(blocks);
    expect(tables[4]![huge]!.entries).toEqual((huge > 0 ? tables[4]![huge - 1]! : tables[3]!.at(-1)!).entries);
    expect(last.bytes.length).toBeGreaterThan(16384); // reassembled from HEADERS + CONTINUATION
  });

  it('an entry larger than the table empties it and is not added (RFC 7541 §4.4), as HpackDecoder does', () => {
    // Hand-made block: "y: z" with incremental indexing, then "x: " + 5,000 octets, also incremental.
    const big = 5000;
    const bytes = Uint8Array.from([
      0x40,
      0x01,
      0x79,
      0x01,
      0x7a,
      0x40,
      0x01,
      0x78,
      0x7f,
      ((big - 127) & 0x7f) | 0x80,
      (big - 127) >> 7,
      ...new Array<number>(big).fill(0x61),
    ]);
    const decoder = new HpackDecoder();
    const { steps } = decoder.decodeAnnotated(bytes);
    const [afterSmall, afterBig] = replayTables([{ index: 0, streamId: 1, frameType: 'HEADERS', at: 0, bytes, steps }])[0]!;
    expect(afterSmall!.entries.map((e) => e.name)).toEqual(['y']);
    expect(afterBig!.entries).toEqual(decoder.tableState.entries);
    expect(afterBig!.entries).toEqual([]);
    expect(afterBig!.evicted.map((e) => [e.index, e.name])).toEqual([[62, 'y']]);
    expect(afterBig!.inserted).toBeUndefined();
    expect(steps[1]!.evicted).toBe(1);
  });

  it('costs add up to the block and Huffman savings are what the Huffman code gives', () => {
    const [ctx] = contextsOf(recording);
    const block = blocksAt(recording, ctx!, end())[0]!;
    const costs = block.steps.map(costOf);
    expect(costs.reduce((n, c) => n + c.wire, 0)).toBe(block.bytes.length);
    const withHuffman = costs.filter((c) => c.value?.huffmanUsed);
    expect(withHuffman.length).toBeGreaterThan(0);
    for (const c of withHuffman) expect(c.value!.saved).toBe(c.value!.raw - c.value!.huffman);
  });
});

describe('HpackStepper', () => {
  it('shows the dynamic table at each step, with the insertion and the evictions marked', () => {
    render(<HpackStepper recording={recording} cursor={end()} />);
    const ctx = contextsOf(recording).find((c) => c.sender === 'client')!;
    fireEvent.change(screen.getByLabelText('Compression context'), { target: { value: ctx.key } });
    const blocks = blocksAt(recording, ctx, end());
    const tables = replayTables(blocks);
    // The block (and step) that evicted something.
    const b = tables.findIndex((t) => t.some((s) => s.evicted.length > 0));
    expect(b).toBeGreaterThan(0);
    const s = tables[b]!.findIndex((t) => t.evicted.length > 0);
    fireEvent.change(screen.getByLabelText('Field block'), { target: { value: String(b) } });
    fireEvent.click(screen.getByRole('button', { name: `Show the table after representation ${s + 1}` }));
    const table = screen.getByTestId('hpack-dynamic-table');
    const live = [...table.querySelectorAll('tr[data-entry="live"]')].map((tr) => [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent));
    expect(live).toEqual(tables[b]![s]!.entries.map((e) => [String(e.index), e.name, e.value, String(e.size)]));
    const evicted = table.querySelectorAll('tr[data-entry="evicted"]');
    expect(evicted.length).toBe(tables[b]![s]!.evicted.length);
    expect(within(table).getAllByText('inserted')).toHaveLength(1);
    // The current step is marked in the representation list, and Previous moves it.
    const steps = screen.getAllByRole('table')[0]!;
    expect(steps.querySelector('tr[aria-current="step"]')!.getAttribute('data-step')).toBe(String(s));
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(steps.querySelector('tr[aria-current="step"]')!.getAttribute('data-step')).toBe(String(s - 1));
    const liveBefore = [...screen.getByTestId('hpack-dynamic-table').querySelectorAll('tr[data-entry="live"] td:nth-child(2)')].map((td) => td.textContent);
    expect(liveBefore).toEqual(tables[b]![s - 1]!.entries.map((e) => e.name));
    // The step's own bytes, with the first octet's pattern (RFC 7541 §6).
    const step = blocks[b]!.steps[s - 1]!;
    const hex = Array.from(blocks[b]!.bytes.subarray(step.start, step.end), (x) => x.toString(16).padStart(2, '0')).join(' ');
    expect(screen.getByTestId('hpack-step-bytes').textContent).toContain(hex);
    // Totals: the wire column adds up to the block's length.
    expect(steps.querySelector('tfoot td')!.textContent).toBe(String(blocks[b]!.bytes.length));
  });
});
