/**
 * The OpenAPI document says what the server does with the IVR settings: the `log` setting's
 * description is the one text the code keeps for it (and says what it writes), and the settings'
 * schemas accept and refuse `vxmlProperties` names as the server does. The schemas are read from
 * `/openapi.json` and run with a JSON Schema validator (@cfworker/json-schema, the console's own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator, type Schema } from '@cfworker/json-schema';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { MemoryStore } from '../../src/store/index.js';
import { LOG_SETTING_HELP } from '../../src/ivr-settings/ivr-settings-schema.js';

type Spec = {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
};

const SETTINGS = '/api/admin/apps/{streamId}/ivr-settings';

/** Names the server takes or refuses: VoiceXML 2.1's own, dotted platform names, and names of neither kind. */
const NAMES = [
  'bargein',
  'timeout',
  'maxnbest',
  'universals',
  'com.acme.asr.mode',
  'x.y',
  'bargin',
  'vendorMode',
  'asr_mode',
  'timeoutx',
];

describe('the IVR settings in the OpenAPI document', () => {
  let gw: RunningGateway;
  let spec: Spec;
  let streamId: string;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`settings-doc-${Date.now()}:`) });
    spec = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Spec;
    streamId = (await gw.admin('POST', '/api/admin/apps', { name: 'Documented', language: 'en' })).body
      .streamId as string;
  });
  afterAll(async () => {
    await gw.close();
  });

  const schemaOf = (method: 'put' | 'patch'): Schema => {
    const content = spec.paths[SETTINGS]![method]!.requestBody.content;
    return (content['application/json'] ?? content['application/merge-patch+json'])!.schema;
  };

  it('when the log setting is read in the PUT and PATCH schemas, then both say it writes turn transcript lines with the caller words', () => {
    for (const method of ['put', 'patch'] as const) {
      const log = (schemaOf(method) as { properties: Record<string, { description?: string }> }).properties
        .log!;
      expect(log.description, method).toBe(LOG_SETTING_HELP);
      expect(log.description).toMatch(/turn transcript/);
      expect(log.description).toMatch(/caller's words/);
      expect(log.description).not.toMatch(/does not read/);
    }
  });

  it('when the enabled setting is read in the PUT schema, then it says a PUT that leaves it out keeps it', () => {
    const enabled = (schemaOf('put') as { properties: Record<string, { description?: string }> }).properties
      .enabled!;
    expect(enabled.description).toMatch(/PUT that leaves it out keeps/);
  });

  it('when vxmlProperties names are checked, then the PUT and PATCH schemas accept and refuse each name as the server does', async () => {
    const put = new Validator(schemaOf('put'), '2020-12', false);
    const patch = new Validator(schemaOf('patch'), '2020-12', false);
    const verdicts = [];
    for (const name of NAMES) {
      const value = name === 'bargein' ? true : name === 'timeout' ? '4s' : name === 'maxnbest' ? 2 : 'v';
      const body = { vxmlProperties: { [name]: value } };
      const server = await gw.admin('PUT', `/api/admin/apps/${streamId}/ivr-settings`, body);
      const patched = await gw.admin('PATCH', `/api/admin/apps/${streamId}/ivr-settings`, body);
      verdicts.push({
        name,
        server: server.status === 200,
        serverPatch: patched.status === 200,
        put: put.validate(body).valid,
        patch: patch.validate(body).valid,
      });
    }
    // the server's own verdicts, so the comparison below cannot pass by everything being refused
    expect(verdicts.filter((v) => v.server).map((v) => v.name)).toEqual([
      'bargein',
      'timeout',
      'maxnbest',
      'universals',
      'com.acme.asr.mode',
      'x.y',
    ]);
    for (const v of verdicts) {
      expect({ name: v.name, put: v.put, patch: v.patch, serverPatch: v.serverPatch }).toEqual({
        name: v.name,
        put: v.server,
        patch: v.server,
        serverPatch: v.server,
      });
    }
  });
});
