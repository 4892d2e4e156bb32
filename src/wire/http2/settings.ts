/**
 * SETTINGS as data (RFC 9113 §6.5): names <-> identifiers, building a SETTINGS frame from a partial
 * settings object, and checking the settings we are asked to announce, so that a bad option fails
 * here with a sentence rather than at the peer with a GOAWAY.
 */
import { SETTINGS_IDS, type SettingName, type Settings } from './constants';
import { usageError } from './errors';
import { checkSetting } from './frame-codec';
import type { Frame, SettingsParameter } from './frames';

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
