/**
 * The TTS voice per language in the IVR settings (issue 43): the setting's shape, the voice a call's
 * language gets (its tag, else its primary subtag, else the dialect's default), and the documents a
 * turn maps to carrying it, in every kind that speaks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileAgent, demoAgentDefinition, type CompiledAgent } from '../../src/agent/index.js';
import type { AnswerSpec } from '../../src/ivr/call-session.js';
import { toVxmlDocument, waitDocument, type DocumentContext } from '../../src/ivr/document-mapper.js';
import { voiceFor } from '../../src/ivr/ivr-languages.js';
import { ivrSettingsSchema, type IvrSettings } from '../../src/ivr-settings/ivr-settings-schema.js';
import { dialectNames, dialectProfile } from '../../src/vxml/index.js';

let agent: CompiledAgent;
beforeAll(async () => {
  agent = await compileAgent(demoAgentDefinition);
});

const settingsWith = (voices: Record<string, unknown>, dialect = 'w3c'): IvrSettings =>
  ivrSettingsSchema.parse({ dialect, languages: { voices } });

const ctxFor = (settings: IvrSettings): DocumentContext => ({
  settings,
  agent,
  callId: 'c-1',
  turn: 2,
  submitUrl: 'https://gateway.example.com/ivr/hooks/st-1?token=t',
  lang: 'en-US',
});

describe('the voice setting per language', () => {
  it('when the settings leave voices out, then they default to none and no language gets a voice in any dialect', () => {
    const settings = ivrSettingsSchema.parse({});
    expect(settings.languages.voices).toEqual({});
    for (const dialect of dialectNames) {
      expect(dialectProfile(dialect).defaultVoices).toEqual({});
      expect(voiceFor({ ...settings, dialect }, 'es-US')).toBeUndefined();
    }
  });

  it('when a voice has a bad gender, an empty name or an unknown field, or is keyed by no language tag, then the settings are refused', () => {
    for (const voices of [
      { 'es-US': { gender: 'robot' } },
      { 'es-US': { name: '  ' } },
      { 'es-US': { pitch: 'high' } },
      { Spanish: { gender: 'male' } },
    ]) {
      expect(ivrSettingsSchema.safeParse({ languages: { voices } }).success, JSON.stringify(voices)).toBe(
        false,
      );
    }
  });

  it('when a voice is set for es-US and one for en, then es-US gets its own, en-US the one of its primary subtag, fr-FR none', () => {
    const settings = settingsWith({ 'es-US': { name: 'Paulina', gender: 'female' }, en: { gender: 'male' } });
    expect(voiceFor(settings, 'es-US')).toEqual({ name: 'Paulina', gender: 'female', lang: 'es-US' });
    expect(voiceFor(settings, 'ES-us')).toEqual({ name: 'Paulina', gender: 'female', lang: 'ES-us' });
    expect(voiceFor(settings, 'en-US')).toEqual({ gender: 'male', lang: 'en-US' });
    expect(voiceFor(settings, 'fr-FR')).toBeUndefined();
  });

  it("when a Spanish answer of each kind is mapped, then its document carries the Spanish voice, and the app's wait document the English one", () => {
    const settings = settingsWith({ 'es-US': { name: 'Paulina' }, 'en-US': { name: 'Samantha' } });
    const answers: AnswerSpec[] = [
      {
        action: 'ask',
        prompt: [{ type: 'text', text: '¿Para cuántas personas?' }],
        await: { kind: 'entity', entityType: 'number' },
        language: 'es-US',
      },
      { action: 'continue', prompt: [{ type: 'text', text: 'Un momento.' }], language: 'es-US' },
      { action: 'end', prompt: [{ type: 'text', text: 'Adiós.' }], language: 'es-US' },
      {
        action: 'transfer',
        prompt: [{ type: 'text', text: 'Le paso.' }],
        transfer: { destination: 'tel:+15550100' },
        language: 'es-US',
      },
      { action: 'error', prompt: [], error: 'agent_error', language: 'es-US' },
    ];
    for (const answer of answers) {
      const doc = toVxmlDocument(answer, ctxFor(settings));
      expect(doc, answer.action).toMatchObject({ lang: 'es-US', voice: { name: 'Paulina', lang: 'es-US' } });
    }
    expect(waitDocument(ctxFor(settings))).toMatchObject({
      lang: 'en-US',
      voice: { name: 'Samantha', lang: 'en-US' },
    });
    expect(
      toVxmlDocument({ action: 'end', prompt: [], language: 'es-US' }, ctxFor(settingsWith({}))),
    ).not.toHaveProperty('voice');
  });
});
