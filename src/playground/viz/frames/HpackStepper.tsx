/**
 * HPACK stepper: walk the representations of each field block one at a time and watch the dynamic table
 * change: which representation was used (RFC 7541 §6), what it cost against sending the field as text,
 * what Huffman coding saved on each string, which entry it inserted and which it evicted.
 *
 * The block follows the player's cursor (the newest block at that step); Previous/Next or a click on a
 * representation moves within it.
 */
import { useMemo, useState } from 'react';
import type { ViewProps } from '../views';
import { stepOf, visibleCount } from '../../recording/model';
import { blocksAt, contextsOf, costOf, replayTables, type FieldBlock, type StepCost, type StringCost } from './hpack';
import type { HpackStep } from 'roundtrip/wire';
import './frames.css';

const REPRESENTATION_LABELS: Readonly<Record<HpackStep['representation'], string>> = {
  indexed: 'Indexed',
  'literal-incremental': 'Literal, incremental indexing',
  'literal-without-indexing': 'Literal, without indexing',
  'literal-never-indexed': 'Literal, never indexed',
  'size-update': 'Dynamic table size update',
};

/** RFC 7541 §6: the first octet's pattern says which representation follows. */
const PATTERNS: Readonly<Record<HpackStep['representation'], string>> = {
  indexed: '1xxxxxxx (§6.1)',
  'literal-incremental': '01xxxxxx (§6.2.1)',
  'literal-without-indexing': '0000xxxx (§6.2.2)',
  'literal-never-indexed': '0001xxxx (§6.2.3)',
  'size-update': '001xxxxx (§6.3)',
};

const huffmanText = (c: StringCost | null): string =>
  c === null ? 'indexed name' : c.huffmanUsed ? `Huffman on: ${c.huffman} of ${c.raw} B (−${c.saved})` : `Huffman off: ${c.raw} B (Huffman: ${c.huffman})`;

/** How many of `blocks` (in event order) come from the first `visible` events of their source. */
function blocksBefore(blocks: readonly FieldBlock[], visible: number): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (blocks[mid]!.index < visible) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Costs of a block's representations; blocks are immutable, so computed once each (Huffman sizes included). */
const costCache = new WeakMap<FieldBlock, readonly StepCost[]>();
function costsOf(block: FieldBlock): readonly StepCost[] {
  let costs = costCache.get(block);
  if (!costs) costCache.set(block, (costs = block.steps.map(costOf)));
  return costs;
}

export default function HpackStepper({ recording, cursor, onCursor }: ViewProps) {
  const contexts = useMemo(() => contextsOf(recording), [recording]);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const ctx = contexts.find((c) => c.key === chosenKey) ?? contexts[0];
  // Every block of the context and the table after each of its steps, once per recording: the blocks at a
  // cursor are a prefix of these (a replay only depends on the blocks before), so a scrub step is a binary
  // search instead of a re-read of every frame and a replay of every block so far.
  const all = useMemo(() => (ctx ? blocksAt(recording, ctx, recording.steps.length - 1) : []), [recording, ctx]);
  // The table starts at SETTINGS_HEADER_TABLE_SIZE when the recording gives one (the inspector's form does), else
  // at 4,096 octets (RFC 9113 §6.5.2): a smaller start makes the same block evict sooner.
  const startSize = ctx?.source.options?.headerTableSize;
  const tables = useMemo(() => replayTables(all, typeof startSize === 'number' ? startSize : undefined), [all, startSize]);
  const shown = ctx ? blocksBefore(all, visibleCount(recording, ctx.source.id, cursor)) : 0;
  const blocks = useMemo(() => all.slice(0, shown), [all, shown]);

  // A block or representation picked here holds until the cursor or the context changes. Kept with the cursor
  // and context it was picked at (instead of cleared by an effect), so a scrub step is one render, not two.
  const [pick, setPick] = useState<{ at: number; ctx: string | null; block: number | null; step: number | null }>({
    at: cursor,
    ctx: chosenKey,
    block: null,
    step: null,
  });
  const held = pick.at === cursor && pick.ctx === chosenKey;
  const pickedBlock = held ? pick.block : null;
  const pickedStep = held ? pick.step : null;
  const setPickedBlock = (block: number) => setPick({ at: cursor, ctx: chosenKey, block, step: null });
  const setPickedStep = (step: number) => setPick({ at: cursor, ctx: chosenKey, block: pickedBlock, step });

  if (!ctx) return <p className="rt-empty">No HTTP/2 field blocks recorded yet.</p>;
  const b = Math.min(pickedBlock ?? blocks.length - 1, blocks.length - 1);
  const block = blocks[b];
  const receiver = ctx.sender === 'client' ? 'server' : 'client';
  const contextSelect = (
    <label>
      Compression context{' '}
      <select value={ctx.key} onChange={(e) => setChosenKey(e.target.value)}>
        {contexts.map((c) => (
          <option key={c.key} value={c.key}>
            {`${c.source.label}: ${c.connectionId}, ${c.sender} → ${c.sender === 'client' ? 'server' : 'client'}`}
          </option>
        ))}
      </select>
    </label>
  );
  if (!block) {
    return (
      <div className="rt-hp">
        {contextSelect}
        <p className="rt-empty">No field block in this context yet at this step.</p>
      </div>
    );
  }
  const steps = block.steps;
  const s = Math.min(pickedStep ?? steps.length - 1, steps.length - 1);
  const table = tables[b]![s];
  const costs = costsOf(block);
  const total = costs.reduce((t, c) => ({ wire: t.wire + c.wire, literal: t.literal + c.literal }), { wire: 0, literal: 0 });
  const huffmanSaved = costs.reduce((n, c) => n + (c.name?.saved ?? 0) + (c.value?.saved ?? 0), 0);
  const step = steps[s];

  return (
    <div className="rt-hp">
      <div className="rt-hp-bar">
        {contextSelect}
        <label>
          Field block{' '}
          <select
            value={b}
            onChange={(e) => {
              const i = Number(e.target.value);
              setPickedBlock(i);
              const at = stepOf(recording, ctx.source.id, blocks[i]!.index);
              if (onCursor && at >= 0) onCursor(at);
            }}
          >
            {blocks.map((x, i) => (
              <option key={x.index} value={i}>
                {`${i + 1}: ${x.frameType} on stream ${x.streamId}, ${x.bytes.length} B, ${x.steps.length} representations`}
              </option>
            ))}
          </select>
        </label>
        <span role="group" aria-label="Step through the representations" className="rt-hp-nav">
          <button type="button" onClick={() => setPickedStep(Math.max(0, s - 1))} disabled={s <= 0}>
            Previous
          </button>
          <span aria-live="polite">
            Representation {s + 1} of {steps.length}
          </span>
          <button type="button" onClick={() => setPickedStep(Math.min(steps.length - 1, s + 1))} disabled={s >= steps.length - 1}>
            Next
          </button>
        </span>
      </div>

      <table className="rt-hp-steps">
        <caption>
          Block {b + 1} ({ctx.sender} encoder → {receiver} decoder): {total.wire} B on the wire for {total.literal} B of names and values,{' '}
          {total.literal - total.wire} B saved ({total.literal > 0 ? Math.round((100 * (total.literal - total.wire)) / total.literal) : 0}%); Huffman saved{' '}
          {huffmanSaved} B of that
        </caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Representation</th>
            <th scope="col">Field</th>
            <th scope="col">Table</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">Wire B</th>
            <th scope="col">Text B</th>
            <th scope="col">Saved B</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((x, i) => {
            const c = costs[i]!;
            const where =
              x.representation === 'indexed'
                ? `${x.table} ${x.index}`
                : x.representation === 'size-update'
                  ? `max ${x.maxSize}`
                  : x.addedIndex !== null
                    ? `inserted at ${x.addedIndex}`
                    : x.nameIndex !== null
                      ? `name from ${x.nameTable} ${x.nameIndex}`
                      : '—';
            return (
              <tr key={i} aria-current={i === s ? 'step' : undefined} className={i === s ? 'is-current' : i > s ? 'is-later' : undefined} data-step={i}>
                <td>
                  <button type="button" className="rt-hp-step" onClick={() => setPickedStep(i)} aria-label={`Show the table after representation ${i + 1}`}>
                    {i + 1}
                  </button>
                </td>
                <td>{REPRESENTATION_LABELS[x.representation]}</td>
                <td className="rt-hp-field">{x.representation === 'size-update' ? '' : `${x.name}: ${x.value}`}</td>
                <td>{where}</td>
                <td>{x.representation === 'size-update' || x.representation === 'indexed' ? '—' : huffmanText(c.name)}</td>
                <td>{x.representation === 'size-update' || x.representation === 'indexed' ? '—' : huffmanText(c.value)}</td>
                <td>{c.wire}</td>
                <td>{c.literal}</td>
                <td className={c.saved < 0 ? 'is-negative' : undefined}>{c.saved}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={6}>
              Total
            </th>
            <td>{total.wire}</td>
            <td>{total.literal}</td>
            <td>{total.literal - total.wire}</td>
          </tr>
        </tfoot>
      </table>

      {step ? (
        <p className="rt-hp-bytes" data-testid="hpack-step-bytes">
          Representation {s + 1}: <code>{Array.from(block.bytes.subarray(step.start, step.end), (x) => x.toString(16).padStart(2, '0')).join(' ')}</code> (block
          bytes {step.start}–{step.end - 1}); first octet <code>{block.bytes[step.start]!.toString(2).padStart(8, '0')}</code> matches{' '}
          {PATTERNS[step.representation]}
          {step.evicted > 0 ? `; evicted ${step.evicted} ${step.evicted === 1 ? 'entry' : 'entries'}` : ''}
        </p>
      ) : null}

      <table className="rt-hp-table" data-testid="hpack-dynamic-table">
        <caption>
          Dynamic table after representation {s + 1} ({step ? REPRESENTATION_LABELS[step.representation].toLowerCase() : ''}): {table?.size ?? 0} of{' '}
          {table?.maxSize ?? 0} octets, {table?.entries.length ?? 0} entries
        </caption>
        <thead>
          <tr>
            <th scope="col">Index</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
            <th scope="col">Size</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {table?.entries.map((e) => {
            const inserted = table.inserted !== undefined && e.index === 62;
            return (
              <tr key={`${e.index}`} className={inserted ? 'is-inserted' : undefined} data-entry="live">
                <td>{e.index}</td>
                <td>{e.name}</td>
                <td className="rt-hp-value">{e.value}</td>
                <td>{e.size}</td>
                <td>{inserted ? 'inserted' : ''}</td>
              </tr>
            );
          })}
          {table?.evicted.map((e, i) => (
            <tr key={`evicted-${i}`} className="is-evicted" data-entry="evicted">
              <td>{e.index}</td>
              <td>
                <del>{e.name}</del>
              </td>
              <td className="rt-hp-value">
                <del>{e.value}</del>
              </td>
              <td>{e.size}</td>
              <td>evicted</td>
            </tr>
          ))}
          {table && table.entries.length === 0 && table.evicted.length === 0 ? (
            <tr>
              <td colSpan={5}>empty</td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
