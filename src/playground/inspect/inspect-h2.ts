/**
 * The inspector's reading of HTTP/2 and HPACK hex (h2.ts and h2-connection.ts read the frames): one sender's
 * frames, both sides of a connection matched by stream, or both pasted as one and split at the server's
 * preface; and HPACK blocks decoded in order by one decoder.
 */
import { h2Exchanges } from './capture/index';
import { HEX_FORM_LABELS } from './detect';
import { countOf } from './words';
import { pseudoHeaderBreaches, readBlocks, readFrames } from './h2';
import { type H2Section, h2Sections, readH2Connection, splitDirections } from './h2-connection';
import { hexForm, parseHex } from './hex';
import { h2ConnectionEvents, h2Events, recordingOf } from './to-recording';
import { type Body, type InspectInput, type Problem, untimed } from './inspect-result';

function hexBytes(input: InspectInput): { bytes: Uint8Array; note: string } | Problem {
  const form = hexForm(input.text);
  // A file is its raw bytes unless it is a hex dump (an xxd dump's character column is not hex, so its form says).
  if (input.bytes && form === 'stream' && !/^[\s0-9a-fA-F:,x]*$/.test(input.text.slice(0, 200)))
    return { bytes: input.bytes, note: "Read as the file's raw bytes." };
  const hex = parseHex(input.text, form);
  if (!hex.ok) return { message: `This is not readable as ${HEX_FORM_LABELS[form]}: ${hex.message}`, where: `line ${hex.line}, column ${hex.column}` };
  return { bytes: hex.bytes, note: `Read from ${HEX_FORM_LABELS[hex.form]}: ${countOf(hex.bytes.length, 'byte')}.` };
}

export function h2(input: InspectInput): Body {
  const sections = input.bytes ? undefined : h2Sections(input.text);
  if (sections) return h2Pair(sections, input);
  const got = hexBytes(input);
  if ('message' in got) return { format: 'h2', problems: [got], notes: [] };
  const reading = readFrames(got.bytes, {
    ...(input.sender ? { sender: input.sender } : {}),
    ...(input.tableSize !== undefined ? { tableSize: input.tableSize } : {}),
  });
  // Both directions pasted as one: the client's preface, then blocks with :status (or blocks that stop decoding,
  // as the server's were encoded against another table).
  const statusAmongClient = reading.preface && reading.events.some((e) => e.type === 'h2-frame' && e.headers?.some((f) => f.name === ':status'));
  if (!input.sender && (statusAmongClient || (reading.preface && reading.problem && reading.blocks > 0))) {
    const split = splitDirections(got.bytes);
    if (split) {
      return h2Pair(
        [
          { from: 'client', bytes: split.client, note: got.note },
          { from: 'server', bytes: split.server },
        ],
        input,
        `These bytes hold both directions pasted as one: the client's (from its connection preface) up to byte ${split.at}, then the server's, which begin with its SETTINGS frame (the server's connection preface, RFC 9113 §3.4). Read as one connection, each side's field blocks with their own HPACK table (RFC 7541 §2.2).`,
      );
    }
  }
  const problems: Problem[] = reading.problem
    ? [{ message: reading.problem.message, where: `byte ${reading.problem.offset}${reading.problem.frame ? ` (frame ${reading.problem.frame})` : ''}` }]
    : [];
  if (statusAmongClient)
    problems.push({
      message:
        'A field block with :status follows the client\'s connection preface: these bytes seem to hold both directions, read here as one sender with one HPACK table. Paste each side under a line "client:" or "server:" (or the two separated by a blank line) to read them as one connection.',
    });
  for (const f of reading.findings) problems.push({ message: f.message, where: `byte ${f.offset} (frame ${f.frame})` });
  if (reading.frames === 0 && !reading.preface && problems.length === 0) problems.push({ message: 'No HTTP/2 frame was found in these bytes.' });
  const peer = reading.sender === 'client' ? 'server' : 'client';
  const notes = [
    got.note,
    reading.preface
      ? "It starts with the client connection preface, so these are the client's frames."
      : `No connection preface: taken as the ${reading.sender}'s frames${input.sender ? ' (chosen)' : ''}.`,
    ...(reading.openedByPeer.length > 0
      ? [
          `The ${peer} opened ${reading.openedByPeer.length === 1 ? 'stream' : 'streams'} ${reading.openedByPeer.join(', ')} with ${peer === 'client' ? 'HEADERS' : 'PUSH_PROMISE'} frames this capture does not hold (RFC 9113 §5.1.1: ${peer === 'client' ? 'odd' : 'even'} stream ids are the ${peer}'s): both endpoints' stream states start from them, as if the ${peer} had not ended its side of the stream.`,
        ]
      : []),
    untimed('frame'),
  ];
  const noReplay = `Replay is not offered: these are only the ${reading.sender}'s frames, and a replay needs each request with the response that answered it. Paste the ${peer}'s frames too (under a line "client:" or "server:"), or drop a HAR (nghttp --har, a browser's) or a curl -v log, which hold both.`;
  return {
    format: 'h2',
    noReplay,
    ...(reading.events.length > 0
      ? {
          recording: recordingOf(`Inspected HTTP/2 frames (${reading.sender})`, h2Events(reading.events, reading.sender), {
            httpVersion: '2',
            headerTableSize: input.tableSize ?? 4096,
          }),
        }
      : {}),
    problems,
    notes,
    h2: { sender: reading.sender, preface: reading.preface, frames: reading.frames, blocks: reading.blocks, flow: reading.flow },
  };
}

/** Both sides of one connection (h2-connection.ts): matched streams, both HPACK tables, flow control both ways. */
function h2Pair(sections: readonly H2Section[], input: InspectInput, splitNote?: string): Body {
  const chunks: { client: { bytes: Uint8Array }[]; server: { bytes: Uint8Array }[] } = { client: [], server: [] };
  const read: string[] = [];
  for (const [i, section] of sections.entries()) {
    let bytes = section.bytes;
    if (!bytes) {
      const got = hexBytes({ text: section.text ?? '' });
      if ('message' in got)
        return { format: 'h2', problems: [{ ...got, where: `the ${section.from}'s section (${i + 1} of ${sections.length}), ${got.where}` }], notes: [] };
      bytes = got.bytes;
      read.push(`${section.from}: ${got.note}`);
    } else if (section.note) read.push(section.note);
    chunks[section.from].push({ bytes });
  }
  const reading = readH2Connection(chunks);
  const problems: Problem[] = [];
  for (const side of ['client', 'server'] as const) {
    const p = reading[side].problem;
    if (p)
      problems.push({ message: `The ${side}'s bytes: ${p.message}`, where: `byte ${p.offset} of the ${side}'s bytes${p.frame ? ` (frame ${p.frame})` : ''}` });
  }
  for (const f of reading.findings)
    problems.push({ message: f.message, ...(f.frame ? { where: `byte ${f.offset} of the ${f.sender ?? 'client'}'s bytes (frame ${f.frame})` } : {}) });
  for (const s of reading.streams) {
    for (const [what, fields] of [
      ['request', s.request],
      ['response', s.response],
    ] as const) {
      for (const message of pseudoHeaderBreaches(fields ?? [])) problems.push({ message, where: `stream ${s.streamId}, the ${what}` });
    }
  }
  const answered = reading.streams.filter((s) => s.request && s.openedBy === 'client');
  const field = (fields: readonly { name: string; value: string }[] | undefined, name: string) => fields?.find((f) => f.name === name)?.value;
  return {
    format: 'h2',
    ...(reading.events.length > 0
      ? {
          recording: recordingOf('Inspected HTTP/2 connection (both sides)', h2ConnectionEvents(reading.events, reading.timed), {
            httpVersion: '2',
            headerTableSize: input.tableSize ?? 4096,
          }),
        }
      : {}),
    problems,
    notes: [
      ...(splitNote ? [splitNote] : []),
      ...read,
      `Both sides of one connection: ${countOf(reading.client.frames, 'frame')} from the client, ${countOf(reading.server.frames, 'frame')} from the server, ${countOf(reading.streams.length, 'stream')} matched by id. Each side's blocks are decoded with the table its peer keeps for it, and each side's DATA is counted against the windows its peer gave (SETTINGS_INITIAL_WINDOW_SIZE and WINDOW_UPDATE, RFC 9113 §6.9).`,
      'Pasted bytes hold no times: the two sides are interleaved by what each frame needs first (the server answers a stream after the HEADERS that opened it, acknowledges SETTINGS after they came), so a flow-control window is flagged only when it is overrun once every frame is counted.',
    ],
    h2Connection: {
      timed: reading.timed,
      client: { preface: reading.client.preface, frames: reading.client.frames, blocks: reading.client.blocks, flow: reading.client.flow },
      server: { preface: reading.server.preface, frames: reading.server.frames, blocks: reading.server.blocks, flow: reading.server.flow },
      streams: reading.streams.map((s) => ({
        streamId: s.streamId,
        ...(field(s.request, ':method') ? { method: field(s.request, ':method')! } : {}),
        ...(field(s.request, ':path') ? { path: field(s.request, ':path')! } : {}),
        ...(s.status !== undefined ? { status: s.status } : {}),
        requestData: s.requestData,
        responseData: s.responseData,
        states: s.states,
      })),
    },
    ...(answered.length > 0 ? { replay: { from: 'an HTTP/2 connection (both sides)', exchanges: h2Exchanges(reading) } } : {}),
  };
}

/**
 * The blocks in pasted HPACK hex: a blank line between groups, or else one block per line. xxd -p wraps one long
 * run at 60 hex digits a line, so lines that all (but the last) hold exactly 60 digits stay one block.
 */
export function hpackBlockTexts(text: string): string[] {
  const groups = text
    .split(/\n[ \t]*\r?\n/)
    .map((g) => g.trim())
    .filter((g) => g !== '');
  if (groups.length > 1) return groups;
  if (hexForm(text) !== 'stream') return [text];
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const digits = (l: string) => l.replace(/[^0-9a-fA-F]/g, '').length;
  if (lines.length < 2 || lines.slice(0, -1).every((l) => digits(l) === 60)) return [text];
  return lines;
}

export function hpack(input: InspectInput): Body {
  const tableSize = input.tableSize ?? 4096;
  const texts = input.bytes && !/^[\s0-9a-fA-F:,x]*$/.test(input.text.slice(0, 200)) ? [input.text] : hpackBlockTexts(input.text);
  const parts: Uint8Array[] = [];
  let note = '';
  for (const [i, text] of texts.entries()) {
    const got = hexBytes(texts.length === 1 ? input : { text });
    if ('message' in got) return { format: 'hpack', problems: [texts.length > 1 ? { ...got, where: `block ${i + 1}, ${got.where}` } : got], notes: [] };
    parts.push(got.bytes);
    note = got.note;
  }
  const { reading, blocks, failed } = readBlocks(parts, tableSize);
  const many = parts.length > 1;
  const problems: Problem[] = [];
  if (reading.problem)
    problems.push({ message: reading.problem.message, where: `byte ${failed?.offset ?? 0} of ${many ? `block ${failed?.block ?? 1}` : 'the block'}` });
  blocks.forEach((fields, i) => {
    for (const message of pseudoHeaderBreaches(fields)) problems.push({ message, ...(many ? { where: `block ${i + 1}` } : {}) });
  });
  const fields = blocks.flat();
  return {
    format: 'hpack',
    ...(reading.events.length > 0 && !reading.problem
      ? {
          recording: recordingOf(many ? `Inspected ${parts.length} HPACK blocks` : 'Inspected HPACK block', h2Events(reading.events, 'client'), {
            headerTableSize: tableSize,
          }),
        }
      : {}),
    problems,
    notes: [
      many
        ? `${parts.length} blocks (one per ${texts.length > 1 && /\n[ \t]*\r?\n/.test(input.text) ? 'blank-line-separated group' : 'line'}), ${parts.map((p) => p.length).join(' + ')} bytes, ${countOf(fields.length, 'field')} in all.`
        : note,
      many
        ? 'The blocks are decoded in order by one decoder, as a receiver decodes the blocks of one connection: each starts with the dynamic table the one before it left (RFC 7541 §2.3.2). The first starts with an empty table. The views show each inside the HEADERS frame that would carry it (streams 1, 3, 5, ...): only those 9-octet frame headers are added.'
        : 'The block is decoded as the first on its connection (an empty dynamic table). The views show it inside the HEADERS frame that would carry it: only that 9-octet frame header is added.',
    ],
    hpack: { fields, blocks, table: reading.table },
  };
}
