import { describe, expect, it } from 'vitest';
import { faultSpeech } from '../../src/ivr/fault-speech.js';
import { readWebhookRequest } from '../../src/ivr/webhook-input.js';
import { renderDocument } from '../../src/vxml/index.js';
import { defaultIvrSettings, ivrSettingsSchema } from '../../src/ivr-settings/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';

const settings = ivrSettingsSchema.parse({
  languages: {
    byNumber: { '+1 555 0199': 'es-US' },
    voices: { es: { name: 'Paulina Monica', gender: 'female' }, en: { gender: 'male' } },
  },
});

describe('the words and voice of a fault document', () => {
  it('when the number dialled is the Spanish line, then the error is said in Spanish in the Spanish voice', () => {
    const req = readWebhookRequest({ callId: 'c1', to: '+15550199', turn: '2' });
    const { spoken, responses } = faultSpeech(req, settings, 'en-US');
    expect(spoken).toEqual({
      lang: 'es-US',
      voice: { name: 'Paulina Monica', gender: 'female', lang: 'es-US' },
    });
    expect(responses.error).toBe('Lo sentimos, algo ha fallado por nuestra parte. Inténtelo más tarde.');
    expect(responses.hold).toBe('Un momento, por favor.');
  });

  it("when the call is in the app's own language, then the app's texts and that language's voice are used", () => {
    const req = readWebhookRequest({ callId: 'c1', turn: '2' });
    const { spoken, responses } = faultSpeech(req, settings, 'en-US');
    expect(spoken).toEqual({ lang: 'en-US', voice: { gender: 'male', lang: 'en-US' } });
    expect(responses).toEqual(settings.standardResponses);
  });

  it('when nothing tells the language (the store went away before the app was read), then the document keeps the defaults', () => {
    const req = readWebhookRequest({ callId: 'c1', turn: '2' });
    expect(faultSpeech(req, defaultIvrSettings(), undefined)).toEqual({
      spoken: {},
      responses: defaultIvrSettings().standardResponses,
    });
  });

  it('when the root passes language=es-US, then an error document renders in Spanish with its voice, valid in every dialect', async () => {
    const req = readWebhookRequest({ callId: 'c1', turn: '2', language: 'es-US' });
    const { spoken, responses } = faultSpeech(req, settings, undefined);
    const xml = renderDocument(
      {
        kind: 'error',
        ...spoken,
        callId: 'c1',
        prompt: [{ type: 'text', text: responses.error }],
        error: 'store_unavailable',
      },
      { dialect: 'w3c' },
    );
    expect(xml).toContain('xml:lang="es-US"');
    expect(xml).toContain('<voice name="Paulina Monica" gender="female"');
    expect(xml).toContain('Lo sentimos');
    for (const dialect of ['w3c', 'jvoicexml', 'cisco-vvb', 'voxeo-prophecy'] as const) {
      await assertValidVxml(
        renderDocument(
          {
            kind: 'error',
            ...spoken,
            callId: 'c1',
            prompt: [{ type: 'text', text: responses.error }],
            error: 'x',
          },
          { dialect },
        ),
      );
    }
  });
});
