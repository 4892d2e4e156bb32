import { describe, expect, it } from 'vitest';
import { har as validateHar } from 'har-validator';
import { createServer, createSimulation, http } from 'roundtrip/wire';
import { RecordingStore } from './recording';
import { recordingFromJson, recordingToHar, recordingToJson } from './export';

async function recorded() {
  const store = new RecordingStore();
  const server = createServer({ routes: [http.get('/todos/:id', (_r, { params }) => Response.json({ id: params.id }))] });
  for (const [id, httpVersion] of [
    ['sim-1', '1.1'],
    ['sim-2', '2'],
  ] as const) {
    const sim = createSimulation({ server, httpVersion, tls: '1.3', seed: 2 });
    store.addSource({ id, kind: 'wire', label: `HTTP/${httpVersion}`, options: { epoch: sim.options.epoch } });
    sim.subscribe((e) => store.append(id, [e]));
    await Promise.all([sim.fetch('/todos/1'), sim.fetch('/todos/2')]);
  }
  store.addSource({ id: 'client-1', kind: 'query', label: 'QueryClient 1' });
  store.append('client-1', [{ kind: 'environment', at: 5, online: true, focused: true }]);
  return store.snapshot();
}

describe('recording JSON', () => {
  it('round-trips through JSON text, steps included', async () => {
    const recording = await recorded();
    const json = JSON.parse(JSON.stringify(recordingToJson(recording, 'pg')));
    expect(json).toMatchObject({ format: 'roundtrip-recording', version: 1, playground: 'pg' });
    expect(json.steps[0]).toEqual([0, 0]);
    const back = recordingFromJson(json);
    expect(back.steps).toEqual(recording.steps);
    expect(back.sources.map((s) => s.events.length)).toEqual(recording.sources.map((s) => s.events.length));
  });

  it('says what is wrong with something else', () => {
    expect(() => recordingFromJson({ format: 'har' })).toThrow(/"format" must be "roundtrip-recording"/);
    expect(() => recordingFromJson({ format: 'roundtrip-recording', version: 9, sources: [], steps: [] })).toThrow(/version 9/);
    expect(() => recordingFromJson({ format: 'roundtrip-recording', version: 1, sources: [], steps: [[0, 0]] })).toThrow(/step 0/);
  });
});

describe('recording HAR', () => {
  it('merges the simulations as pages and passes har-validator', async () => {
    const har = recordingToHar(await recorded())!;
    const log = har.log as typeof har.log & { pages: { id: string; title: string }[] };
    expect(log.pages.map((p) => [p.id, p.title])).toEqual([
      ['sim-1', 'HTTP/1.1'],
      ['sim-2', 'HTTP/2'],
    ]);
    expect(log.entries).toHaveLength(4);
    expect(log.entries.map((e) => (e as { pageref?: string }).pageref)).toEqual(['sim-1', 'sim-1', 'sim-2', 'sim-2']);
    await expect(validateHar(JSON.parse(JSON.stringify(har)))).resolves.toBeTruthy();
  });

  it('is undefined without requests', () => {
    expect(recordingToHar({ sources: [], steps: [] })).toBeUndefined();
  });
});
