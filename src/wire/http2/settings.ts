/**
 * SETTINGS (RFC 9113 §6.5): as data (names <-> identifiers, building a SETTINGS frame from a partial
 * settings object, and checking the settings we are asked to announce, so that a bad option fails here
 * with a sentence rather than at the peer with a GOAWAY), and as the exchange one connection keeps
 * (`SettingsExchange`, §6.5.3): which of our settings the peer has acknowledged, which still wait, and
 * where each value takes effect. Apart from connection.ts so the synchronisation rules read in one place.
 */
import type { HpackDecoder, HpackEncoder } from '../hpack/index';
import { DEFAULT_SETTINGS, SETTINGS_IDS, type SettingName, type Settings } from './constants';
import { type Http2Error, connectionError, usageError } from './errors';
import { checkSetting } from './frame-codec';
import type { Frame, FrameOfType, SettingsParameter } from './frames';
import type { StreamRegistry } from './stream-registry';

export const SETTING_NAMES = Object.keys(SETTINGS_IDS) as SettingName[];
export const nameOfSetting = (id: number): SettingName | undefined => SETTING_NAMES.find((n) => SETTINGS_IDS[n] === id);

export function settingsFrame(settings: Partial<Settings>, skip: Partial<Settings> = {}): Frame {
  const params: SettingsParameter[] = [];
  for (const name of SETTING_NAMES) {
    const value = settings[name];
    // Infinity ("no limit") is only ever a default: it cannot be sent, and need not be.
    if (value !== undefined && value !== skip[name] && value !== Infinity) params.push({ id: SETTINGS_IDS[name], value });
  }
  return { type: 'SETTINGS', streamId: 0, flags: 0, settings: params };
}

/** Our own settings must be ones a peer would accept (RFC 9113 §6.5.2); say what was expected. */
export function checkLocalSettings(settings: Partial<Settings>, role: 'client' | 'server'): void {
  for (const name of SETTING_NAMES) {
    const value = settings[name];
    if (value === undefined) continue;
    if (value === Infinity && (name === 'MAX_CONCURRENT_STREAMS' || name === 'MAX_HEADER_LIST_SIZE')) continue;
    if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
      throw usageError('PROTOCOL_ERROR', `settings.${name}: expected an integer from 0 to 2^32-1, got ${value}.`);
    }
    const problem = checkSetting(SETTINGS_IDS[name], value, 0);
    if (problem) throw usageError(problem.code, `settings.${name}: ${problem.message}`);
    if (name === 'ENABLE_PUSH' && role === 'server' && value !== 0) {
      throw usageError('PROTOCOL_ERROR', 'settings.ENABLE_PUSH: a server may only send 0 (RFC 9113 §6.5.2).');
    }
  }
}

/** Largest dynamic table our encoder will use, whatever the peer allows (RFC 7541 §4.2 permits less). */
const MAX_ENCODER_TABLE = 65_536;

/**
 * The SETTINGS exchange of one connection (RFC 9113 §6.5.3). Ours bind the peer only once it acknowledges
 * them, in the order we sent them; the peer's bind us on receipt. Each value is applied where it acts: the
 * table and list sizes on HPACK, SETTINGS_INITIAL_WINDOW_SIZE on the window of every stream.
 */
export class SettingsExchange {
  /** Our settings as acknowledged by the peer (they bind the peer only once acknowledged). */
  readonly local: Settings = { ...DEFAULT_SETTINGS };
  /** The peer's settings, applied on receipt. */
  readonly remote: Settings = { ...DEFAULT_SETTINGS };
  /** Ours, sent and not yet acknowledged, oldest first. */
  private readonly pending: Partial<Settings>[] = [];

  constructor(
    private readonly role: 'client' | 'server',
    private readonly encoder: HpackEncoder,
    private readonly decoder: HpackDecoder,
  ) {}

  /** The SETTINGS frame announcing `settings` (without the values equal to `skip`'s), now awaiting acknowledgement. */
  announce(settings: Partial<Settings>, skip?: Partial<Settings>): Frame {
    this.pending.push({ ...settings });
    return settingsFrame(settings, skip);
  }

  /** The smallest SETTINGS_MAX_CONCURRENT_STREAMS among the acknowledged one and those still pending. */
  streamLimit(): number {
    let limit = this.local.MAX_CONCURRENT_STREAMS;
    for (const p of this.pending) if (p.MAX_CONCURRENT_STREAMS !== undefined) limit = Math.min(limit, p.MAX_CONCURRENT_STREAMS);
    return limit;
  }

  /** The peer acknowledged our oldest pending SETTINGS: they take effect. Returns them; undefined for an ACK of nothing. */
  acknowledged(streams: StreamRegistry): Partial<Settings> | undefined {
    const acked = this.pending.shift();
    if (!acked) return undefined; // an ACK for nothing: harmless, ignore
    for (const name of SETTING_NAMES) {
      const value = acked[name];
      if (value === undefined) continue;
      if (name === 'HEADER_TABLE_SIZE') this.decoder.setMaxTableSize(value);
      if (name === 'MAX_HEADER_LIST_SIZE') this.decoder.setMaxHeaderListSize(value);
      if (name === 'INITIAL_WINDOW_SIZE') {
        const delta = value - this.local.INITIAL_WINDOW_SIZE;
        for (const rec of streams.all()) rec.recv.adjust(delta, value);
      }
      this.local[name] = value;
    }
    return acked;
  }

  /**
   * The peer's SETTINGS, applied in order. Returns what was applied and the settings we do not know, or the
   * connection error the first bad value is (those before it stay applied).
   */
  received(frame: FrameOfType<'SETTINGS'>, streams: StreamRegistry): { applied: Partial<Settings>; unknown: SettingsParameter[] } | Http2Error {
    const applied: Partial<Settings> = {};
    const unknown: SettingsParameter[] = [];
    for (const { id, value } of frame.settings) {
      const name = nameOfSetting(id);
      if (!name) {
        unknown.push({ id, value }); // RFC 9113 §6.5.2: unknown settings are ignored
        continue;
      }
      if (name === 'ENABLE_PUSH' && this.role === 'client' && value === 1) {
        return connectionError('PROTOCOL_ERROR', 'A server sent SETTINGS_ENABLE_PUSH = 1 (RFC 9113 §6.5.2).');
      }
      if (name === 'INITIAL_WINDOW_SIZE') {
        const delta = value - this.remote.INITIAL_WINDOW_SIZE;
        for (const rec of streams.all()) {
          const problem = rec.send.adjust(delta);
          if (problem) return connectionError('FLOW_CONTROL_ERROR', `SETTINGS_INITIAL_WINDOW_SIZE: ${problem} (RFC 9113 §6.9.2).`);
        }
      }
      if (name === 'HEADER_TABLE_SIZE') this.encoder.setMaxTableSize(Math.min(value, MAX_ENCODER_TABLE));
      this.remote[name] = value;
      applied[name] = value;
    }
    return { applied, unknown };
  }
}
