/**
 * Where the sequence diagram's arrow labels go. Computed once per model and geometry, for every label the run
 * will ever show, so scrubbing only chooses which are drawn, never moves one.
 *
 * Arrows that leave within LABEL_GAP px of each other the same way, on the same connection and carrying the
 * same kind of message (a burst of segments of one response, a window of requests), share one label: the
 * first speaks for the group, "(+N more)" counts the rest. Nothing else is ever merged: an arrow of another
 * kind or another connection keeps its own label, and the TCP control arrows (SYN, SYN-ACK, the handshake's
 * ACK, FIN, RST: RFC 9293 §3.5-3.6), which open and close connections, are never grouped at all. Issue #27:
 * on HTTP/1.0 the FIN closing c1 and the SYN opening c2 left together and were drawn as "FIN (+1 more)", so the
 * new connection, the point of the lesson, never appeared.
 *
 * Each label is lettered along its arrow, a little above it, at the middle; if that spot covers a label
 * already placed, a lane mark or a lane name, it tries further along the arrow and below it; where no spot
 * has room for the whole text, it tries the same spots again with the text shortened (SHORTER: its first
 * characters and an ellipsis), and if even that finds none the label is left out. Control arrows are placed
 * first, so a dense burst of data never takes their room. Either way the arrow keeps the whole text in its
 * accessible name and tooltip, and zooming in makes room. So no two labels are drawn over each other, however
 * dense the run.
 */
import { firstFree, rectQuad, rotatedQuad, textWidth, type Quad } from '../placement';
import type { Arrow } from './sequence';

export const LABEL_FONT = 11;
const LABEL_MAX = 40;
/** Labelled arrows leaving within this many pixels of each other, the same way, share one label. */
const LABEL_GAP = 12;
const ASCENT = 10.5;
const DESCENT = 3;
/** Between an arrow and its label's nearest edge. */
const OFFSET = 3;
/** The lengths a label too long for every spot is shortened to, in turn (each ending in an ellipsis). */
const SHORTER = [24, 16] as const;
/** Where along its arrow a label is tried, in turn; a control arrow's label tries more places and rows. */
const ALONG = [0.5, 0.38, 0.62, 0.26, 0.74] as const;
const CONTROL_ALONG = [0.5, 0.38, 0.62, 0.26, 0.74, 0.16, 0.84] as const;
const STACK = 4;

export interface PlacedLabel {
  readonly key: number;
  /** Positions in model.arrows: the first is the one whose text the label shows. */
  readonly members: readonly number[];
  /** Baseline start (text-anchor middle: the centre), in the label's unrotated frame. */
  readonly x: number;
  readonly y: number;
  /** Degrees about (cx, cy). */
  readonly angle: number;
  readonly cx: number;
  readonly cy: number;
  readonly box: Quad;
  /** Set when the whole text found no room: how many characters it is shortened to (see `shorten`). */
  readonly chars?: number;
}

export const clip = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text);

/**
 * Whether an arrow opens or closes a connection (TCP's SYN, SYN-ACK, handshake ACK, FIN, RST): its label is
 * never merged into another's and is placed before the others.
 */
export const isControl = (a: Arrow): boolean => a.category === 'tcp';

/**
 * The key arrows must share to be merged into one label: same direction, same connection, same kind. Control
 * arrows get a key of their own (their index), so they are never merged.
 */
export function mergeKey(a: Arrow): string {
  return isControl(a) ? `#${a.index}` : `${a.from}>${a.to}|${a.connectionId}|${a.category}`;
}

/**
 * What a group's label says, given which of its members are on screen (the first must be). A control arrow
 * names its connection ("c2 SYN"): six connections opened at once draw six SYN-ACKs along the same line.
 */
export function labelText(arrows: readonly Arrow[], members: readonly number[], shown: (a: Arrow) => boolean): string {
  const lead = arrows[members[0]!]!;
  if (isControl(lead)) return `${lead.connectionId} ${lead.label}`;
  let more = 0;
  for (const m of members.slice(1)) if (shown(arrows[m]!)) more++;
  return `${clip(lead.label)}${more > 0 ? ` (+${more} more)` : ''}`;
}

/** The text cut to `chars` characters, the last an ellipsis; unchanged if it is no longer than that. */
export function shorten(text: string, chars: number | undefined): string {
  return chars === undefined || text.length <= chars ? text : `${text.slice(0, chars - 1).trimEnd()}…`;
}

export interface LabelEnds {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/**
 * Places every label. `ends(i)` is arrow i's drawn line; `obstacles` are what labels keep clear of (marks,
 * lane names, the axis).
 */
export function placeLabels(arrows: readonly Arrow[], ends: (i: number) => LabelEnds, obstacles: readonly Quad[]): PlacedLabel[] {
  const groups: { members: number[]; y1: number; control: boolean }[] = [];
  const lastByKey = new Map<string, (typeof groups)[number]>();
  arrows.forEach((a, i) => {
    if (!a.label) return;
    const key = mergeKey(a);
    const { y1 } = ends(i);
    const group = lastByKey.get(key);
    if (group && y1 - group.y1 < LABEL_GAP) group.members.push(i);
    else {
      const made = { members: [i], y1, control: isControl(a) };
      lastByKey.set(key, made);
      groups.push(made);
    }
  });
  const taken: Quad[] = [...obstacles];
  const out: PlacedLabel[] = [];
  // Control arrows first (in trace order), then the rest: a connection's opening and closing keep their room.
  const order = [...groups.filter((g) => g.control), ...groups.filter((g) => !g.control)];
  for (const g of order) {
    const { x1, y1, x2, y2 } = ends(g.members[0]!);
    const text = labelText(arrows, g.members, () => true);
    const slope = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
    // Along the arrow, as sequence diagrams letter them; flipped so it never reads upside down.
    const angle = Math.abs(slope) > 90 ? slope - 180 * Math.sign(slope) : slope;
    // The whole text first; then, only where it fits nowhere, shorter.
    for (const chars of [undefined, ...SHORTER.filter((n) => n < text.length)]) {
      const w = textWidth(shorten(text, chars), LABEL_FONT) + 2;
      const spots: { x: number; y: number; cx: number; cy: number; box: Quad }[] = [];
      // A control arrow may stack its label further out (several connections opened at one moment draw
      // their handshakes along one line, and each must be named).
      const levels = g.control ? STACK : 1;
      for (let level = 0; level < levels; level++) {
        for (const t of g.control ? CONTROL_ALONG : ALONG) {
          const cx = x1 + (x2 - x1) * t;
          const cy = y1 + (y2 - y1) * t;
          for (const below of [false, true]) {
            const out = level * (ASCENT + DESCENT + 1);
            const y = below ? cy + OFFSET + ASCENT + out : cy - OFFSET - DESCENT - out;
            spots.push({ x: cx, y, cx, cy, box: rotatedQuad(cx - w / 2, y - ASCENT, w, ASCENT + DESCENT, angle, cx, cy) });
          }
        }
      }
      const free = firstFree(
        spots.map((s) => s.box),
        taken,
      );
      if (free < 0) continue;
      const spot = spots[free]!;
      taken.push(spot.box);
      out.push({
        key: g.members[0]!,
        members: g.members,
        x: spot.x,
        y: spot.y,
        angle,
        cx: spot.cx,
        cy: spot.cy,
        box: spot.box,
        ...(chars === undefined ? {} : { chars }),
      });
      break;
    }
  }
  // Drawn in trace order, as before the control labels went first.
  return out.sort((a, b) => a.key - b.key);
}

/** A text's box at (x, baseline y) with the given anchor: the obstacles the view passes in. */
export function textQuad(text: string, px: number, x: number, y: number, anchor: 'start' | 'middle' | 'end', weight = 400): Quad {
  const w = textWidth(text, px, weight);
  const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
  return rectQuad(left, y - px * 0.95, w, px * 1.25);
}
