/**
 * QPACK stepper, the HTTP/3 counterpart of the HPACK one: for one direction of one connection, every encoder
 * instruction (RFC 9204 §4.3) and every field section (§4.5) in the order the encoder wrote them. The chosen
 * step shows each group of bits with its meaning (qpack/records.ts), its bytes with the part under the
 * pointer lit, the section prefix's Required Insert Count and Base, and the dynamic table after it; sections
 * that had to wait for the encoder stream are marked blocked, with the step that unblocked them.
 *
 * The chosen step follows the player's cursor (the latest written at or before it) until one is clicked.
 */
import { useMemo, useState } from 'react';
import type { QpackPart, QpackTableSnapshot } from 'roundtrip/wire';
import type { ViewProps } from '../views';
import { HexDump } from './HexDump';
import { qpackContexts, type QpackStep } from './qpack-model';
import './frames.css';

const INSTRUCTION_LABEL = {
  'set-capacity': 'Set Dynamic Table Capacity (§4.3.1)',
  'insert-name-ref': 'Insert with Name Reference (§4.3.2)',
  'insert-literal-name': 'Insert with Literal Name (§4.3.3)',
  duplicate: 'Duplicate (§4.3.4)',
} as const;
const LINE_LABEL = {
  indexed: 'Indexed Field Line (§4.5.2)',
  'indexed-post-base': 'Indexed Field Line with Post-Base Index (§4.5.3)',
  'literal-name-ref': 'Literal Field Line with Name Reference (§4.5.4)',
  'literal-post-base-name-ref': 'Literal Field Line with Post-Base Name Reference (§4.5.5)',
  'literal-name': 'Literal Field Line with Literal Name (§4.5.6)',
} as const;

const summary = (s: QpackStep): string => {
  if (s.kind === 'instruction') {
    const r = s.record;
    if (r.kind === 'set-capacity') return `capacity ${r.capacity}`;
    return r.inserted ? `${r.inserted.name}: ${r.inserted.value} → entry ${r.inserted.absoluteIndex}` : '';
  }
  if (s.error) return `error: ${s.error}`;
  if (!s.prefix) return 'blocked (waiting for inserts)';
  return `Required Insert Count ${s.prefix.requiredInsertCount}, Base ${s.prefix.base}, ${s.lines.length} field lines`;
};

export default function QpackStepper({ recording, cursor }: ViewProps) {
  const contexts = useMemo(() => qpackContexts(recording), [recording]);
  const [chosenKey, setChosenKey] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ cursor: number; index: number } | null>(null);
  const ctx = contexts.find((c) => c.key === chosenKey) ?? contexts[0];
  if (!ctx) return <p className="rt-empty">No QPACK field sections recorded yet.</p>;
  let latest = -1;
  for (let i = 0; i < ctx.steps.length; i++) if (ctx.steps[i]!.step <= cursor) latest = i;
  const at = picked && picked.cursor === cursor ? picked.index : latest;
  const step = at >= 0 ? ctx.steps[at] : undefined;
  return (
    <div className="rt-hp rt-qp" data-testid="qpack-stepper">
      <div className="rt-hp-bar">
        <label>
          Direction{' '}
          <select
            value={ctx.key}
            onChange={(e) => {
              setChosenKey(e.target.value);
              setPicked(null);
            }}
          >
            {contexts.map((c) => (
              <option key={c.key} value={c.key}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ol className="rt-qp-steps" aria-label="Encoder instructions and field sections">
        {ctx.steps.map((s, i) => (
          <li
            key={`${s.kind}-${i}`}
            aria-current={i === at ? 'step' : undefined}
            className={`${i === at ? 'is-current' : i > latest ? 'is-later' : ''}${s.kind === 'section' && (s.waitedFor !== undefined || s.receiverBlocked) ? ' is-blocked' : ''}`}
            data-step={i}
          >
            <button type="button" className="rt-hp-step" onClick={() => setPicked({ cursor, index: i })}>
              {s.kind === 'instruction' ? `Encoder stream: ${INSTRUCTION_LABEL[s.record.kind]}` : `Field section on stream ${s.streamId}`}
            </button>{' '}
            <span>{summary(s)}</span>
            {s.kind === 'section' && s.receiverBlocked ? (
              <strong className="rt-qp-flag">
                {' '}
                blocked at the receiver: needed {s.receiverBlocked.requiredInsertCount} entries, had {s.receiverBlocked.insertCount}
                {s.receiverBlocked.unblockedAtStep !== undefined ? '; unblocked when the encoder stream caught up' : ''}
              </strong>
            ) : null}
            {s.kind === 'section' && s.waitedFor !== undefined ? (
              <strong className="rt-qp-flag"> blocked until step {s.waitedFor + 1} (RFC 9204 §2.1.2)</strong>
            ) : null}
          </li>
        ))}
      </ol>
      {step ? <StepDetail key={`${ctx.key}-${at}`} step={step} /> : <p className="rt-empty">Nothing written yet at this step.</p>}
    </div>
  );
}

function StepDetail({ step }: { step: QpackStep }) {
  const groups: { title: string; parts: readonly QpackPart[] }[] =
    step.kind === 'instruction'
      ? [{ title: INSTRUCTION_LABEL[step.record.kind], parts: step.record.parts }]
      : [
          ...(step.prefix ? [{ title: 'Encoded Field Section Prefix (§4.5.1)', parts: step.prefix.parts }] : []),
          ...step.lines.map((l) => ({ title: `${LINE_LABEL[l.kind]}: ${l.name}: ${l.value}${l.neverIndexed ? ' (never indexed)' : ''}`, parts: l.parts })),
        ];
  // Instruction records count from the encoder stream's first byte; the step's bytes start at the instruction.
  const shift = step.kind === 'instruction' ? step.record.start : 0;
  const [pointed, setPointed] = useState<{ group: number; part: number } | null>(null);
  const [active, setActive] = useState(-1);
  const part = pointed ? groups[pointed.group]?.parts[pointed.part] : undefined;
  const bytes = useMemo(() => Array.from(step.bytes), [step]);
  const onByte = (offset: number) => {
    setActive(offset);
    let best: { group: number; part: number; width: number } | null = null;
    groups.forEach((g, gi) =>
      g.parts.forEach((p, pi) => {
        const s = p.start - shift;
        const e = p.end - shift;
        if (offset >= s && offset < e && (!best || e - s < best.width)) best = { group: gi, part: pi, width: e - s };
      }),
    );
    const found = best as { group: number; part: number } | null;
    setPointed(found ? { group: found.group, part: found.part } : null);
  };
  return (
    <section className="rt-qp-detail" aria-label="Step detail">
      {step.kind === 'section' && step.prefix ? (
        <p data-testid="qpack-prefix">
          Required Insert Count <strong>{step.prefix.requiredInsertCount}</strong> (sent as {step.prefix.encodedInsertCount}), Base{' '}
          <strong>{step.prefix.base}</strong> (sign {step.prefix.sign ? 1 : 0}, delta {step.prefix.deltaBase})
        </p>
      ) : null}
      {step.kind === 'section' && step.error ? <p role="alert">{step.error}</p> : null}
      <div className="rt-fi-panes">
        <div className="rt-qp-parts">
          {groups.map((g, gi) => (
            <table key={`${g.title}-${gi}`} className="rt-qp-table">
              <caption>{g.title}</caption>
              <thead>
                <tr>
                  <th scope="col">Bits</th>
                  <th scope="col">Field</th>
                  <th scope="col">Value</th>
                  <th scope="col">Meaning</th>
                </tr>
              </thead>
              <tbody>
                {g.parts.map((p, pi) => (
                  <tr
                    key={`${p.label}-${p.start}-${pi}`}
                    className={pointed?.group === gi && pointed.part === pi ? 'is-current' : undefined}
                    onMouseEnter={() => setPointed({ group: gi, part: pi })}
                    data-part={p.label}
                  >
                    <td className="rt-qp-bits">{p.bits ?? `bytes ${p.start - shift}–${p.end - shift - 1}`}</td>
                    <td>
                      <button type="button" className="rt-qi-pick" onFocus={() => setPointed({ group: gi, part: pi })}>
                        {p.label}
                      </button>
                    </td>
                    <td className="rt-qp-value">{String(p.value)}</td>
                    <td>{p.meaning}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </div>
        <HexDump
          bytes={bytes}
          highlight={part ? { start: part.start - shift, end: part.end - shift } : undefined}
          active={active}
          onByte={onByte}
          label={step.kind === 'instruction' ? 'Bytes of the instruction' : 'Bytes of the field section'}
          describeActive={part ? `${part.label}: ${String(part.value)}` : undefined}
        />
      </div>
      <DynamicTable table={step.tableAfter} />
    </section>
  );
}

function DynamicTable({ table }: { table: QpackTableSnapshot }) {
  return (
    <table className="rt-hp-table" data-testid="qpack-dynamic-table">
      <caption>
        Dynamic table after this step: {table.entries.length} entries, {table.size} of {table.capacity} bytes, Insert Count {table.insertCount}
      </caption>
      <thead>
        <tr>
          <th scope="col">Absolute index</th>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
          <th scope="col">Size</th>
        </tr>
      </thead>
      <tbody>
        {[...table.entries].reverse().map((e) => (
          <tr key={e.absoluteIndex} data-entry={e.absoluteIndex}>
            <td>{e.absoluteIndex}</td>
            <td>{e.name}</td>
            <td className="rt-hp-value">{e.value}</td>
            <td>{e.size}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
