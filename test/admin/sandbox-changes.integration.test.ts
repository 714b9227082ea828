/**
 * Enabling the sandbox pre-fills the IVR settings it needs and switches the channel on; its answer
 * says so: every setting it changed (name, before, after), and whether it switched the channel on.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import type { Store } from '../../src/store/index.js';

type Flat = Record<string, unknown>;

/** The settings as dotted names and values, the way the answer names them. */
function flatten(value: Record<string, unknown>, prefix = '', out: Flat = {}): Flat {
  for (const [k, v] of Object.entries(value)) {
    if (v && typeof v === 'object' && !Array.isArray(v))
      flatten(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v;
  }
  return out;
}

/** What changed between two GETs of the settings, as the sandbox answer should list it. */
function diff(before: Record<string, unknown>, after: Record<string, unknown>) {
  const a = flatten(before);
  const b = flatten(after);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((name) => ({ name, before: a[name] ?? null, after: b[name] ?? null }))
    .sort((x, y) => x.name.localeCompare(y.name));
}
const byName = (list: Array<{ name: string }>) => [...list].sort((x, y) => x.name.localeCompare(y.name));

describeEachStore('what enabling the sandbox changed', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store, config: { cacheTtlMs: 0 } });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  const newApp = async (name: string) =>
    (await gw.admin('POST', '/api/admin/apps', { name })).body.streamId as string;
  const settingsOf = async (id: string) =>
    (await gw.admin('GET', `/api/admin/apps/${id}/ivr-settings`)).body as Record<string, unknown>;
  const enable = (id: string) => gw.admin('PUT', `/api/admin/apps/${id}/ivr-sandbox`, { enabled: true });

  it('when an app never saved settings and has no channel, then the answer lists each pre-filled setting and that the channel was switched on', async () => {
    const id = await newApp('Fresh');
    const before = await settingsOf(id);
    const r = await enable(id);
    expect(r.status).toBe(200);
    const after = await settingsOf(id);
    expect(byName(r.body.settingsChanged)).toEqual(diff(before, after));
    expect(byName(r.body.settingsChanged)).toEqual([
      { name: 'confidenceThreshold', before: 0, after: 50 },
      { name: 'transcription.enabled', before: false, after: true },
    ]);
    expect(r.body.channelSwitchedOn).toBe(true);
    expect((await gw.admin('GET', `/api/admin/apps/${id}/channels/ivr`)).body.enabled).toBe(true);
  });

  it('when the settings are saved not enabled with other values, then every one it rewrote is listed with its old value, and an enabled channel is left alone', async () => {
    const id = await newApp('Custom');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, {
      enabled: false,
      retries: 5,
      dataExtractionKey: 'said',
      confidenceKey: 'how sure',
      confidenceThreshold: 10,
      transcription: { enabled: false, engine: 'builtin:grammar/text' },
    });
    await gw.admin('PUT', `/api/admin/apps/${id}/channels/ivr`, { enabled: true });
    const before = await settingsOf(id);
    const r = await enable(id);
    const after = await settingsOf(id);
    expect(byName(r.body.settingsChanged)).toEqual(diff(before, after));
    expect(r.body.settingsChanged.map((c: { name: string }) => c.name).sort()).toEqual([
      'confidenceKey',
      'confidenceThreshold',
      'dataExtractionKey',
      'enabled',
      'transcription.enabled',
      'transcription.engine',
    ]);
    expect(r.body.settingsChanged).toContainEqual({
      name: 'dataExtractionKey',
      before: 'said',
      after: 'user input',
    });
    expect(after.retries).toBe(5);
    expect(r.body.channelSwitchedOn).toBe(false);
  });

  it('when the settings are saved enabled, then nothing of them changes and the answer says so; a switched-off channel is switched on and said', async () => {
    const id = await newApp('Enabled');
    await gw.admin('PUT', `/api/admin/apps/${id}/ivr-settings`, { enabled: true, confidenceThreshold: 20 });
    await gw.admin('PUT', `/api/admin/apps/${id}/channels/ivr`, { enabled: false });
    const before = await settingsOf(id);
    const r = await enable(id);
    expect(r.body.settingsChanged).toEqual([]);
    expect(await settingsOf(id)).toEqual(before);
    expect(r.body.channelSwitchedOn).toBe(true);
    const again = await enable(id);
    expect(again.body).toMatchObject({ settingsChanged: [], channelSwitchedOn: false });
    const off = await gw.admin('PUT', `/api/admin/apps/${id}/ivr-sandbox`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, settingsChanged: [], channelSwitchedOn: false });
  });
});
