/**
 * The dialect profiles through the operator API: what each VoiceXML browser has (builtins per
 * mode, transcription), as the renderer uses them, for the console's web caller to emulate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { dialectNames, dialectProfiles } from '../../src/vxml/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

describe('dialect profiles', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`dialects-${Date.now()}:`) });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('when the profiles are read, then each dialect is listed with the builtins and transcription the renderer writes for it', async () => {
    const r = await gw.admin('GET', '/api/admin/ivr/dialects');
    expect(r.status).toBe(200);
    expect(r.body.dialects.map((d: { name: string }) => d.name)).toEqual(dialectNames);
    const byName = Object.fromEntries(r.body.dialects.map((d: { name: string }) => [d.name, d]));
    expect(byName['cisco-vvb']).toMatchObject({
      builtins: { voice: [], dtmf: ['boolean', 'digits'] },
      transcription: true,
      transferStyle: 'type',
    });
    expect(byName.jvoicexml).toMatchObject({ transcription: false, transferStyle: 'bridge' });
    for (const name of dialectNames) {
      expect(byName[name].builtins).toEqual({
        voice: [...dialectProfiles[name].builtins.voice],
        dtmf: [...dialectProfiles[name].builtins.dtmf],
      });
      expect(byName[name].facts.length).toBeGreaterThan(0);
    }
  });

  it('when the profiles are asked for without the admin token, then the answer is 401', async () => {
    const r = await fetch(`${gw.url}/api/admin/ivr/dialects`);
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({
      errors: [expect.objectContaining({ msg: expect.any(String), code: expect.anything() })],
    });
  });
});
