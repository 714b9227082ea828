/**
 * Keys beside transcription (issue 30, point 2), without a call: the ask a turn maps to keeps the
 * DTMF grammars (the entity's, or the node's own dtmf ones) when transcription replaces the voice
 * grammars, in every dialect that has transcription; and a keyed answer reaches the agent as DTMF,
 * not held to the recogniser's confidence threshold.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileAgent, demoAgentDefinition, type CompiledAgent } from '../../src/agent/index.js';
import type { AnswerSpec } from '../../src/ivr/call-session.js';
import { toVxmlDocument, type DocumentContext } from '../../src/ivr/document-mapper.js';
import { ivrSettingsSchema, type IvrSettings } from '../../src/ivr-settings/ivr-settings-schema.js';
import { toTurnInput } from '../../src/ivr/turn-input.js';
import { readWebhookRequest } from '../../src/ivr/webhook-input.js';
import {
  renderDocument,
  type AskDocument,
  type DialectName,
  type FieldGrammar,
} from '../../src/vxml/index.js';
import { findAll, parseXml } from '../vxml/xml-tree.js';

const ENGINE = 'builtin:speech/transcribe';
const sizeQuestion: AnswerSpec = {
  action: 'ask',
  prompt: [{ type: 'text', text: 'For how many people?' }],
  await: { kind: 'entity', entityType: 'number' },
};

let agent: CompiledAgent;
beforeAll(async () => {
  agent = await compileAgent(demoAgentDefinition);
});

const settingsWith = (over: Record<string, unknown>): IvrSettings =>
  ivrSettingsSchema.parse({ enabled: true, ...over });

function grammarsOf(answer: AnswerSpec, settings: IvrSettings): FieldGrammar[] {
  const ctx: DocumentContext = {
    settings,
    agent,
    callId: 'c-1',
    turn: 2,
    submitUrl: 'https://gateway.example.com/ivr/hooks/st-1?token=t',
    lang: 'en-US',
  };
  const doc = toVxmlDocument(answer, ctx);
  expect(doc.kind).toBe('ask');
  return (doc as AskDocument).grammars;
}

const on = (dialect: DialectName, engine = ENGINE) =>
  settingsWith({ dialect, transcription: { enabled: true, engine } });

describe('the ask document with transcription on', () => {
  it('when the entity question asks for a number in w3c, then the DTMF digits builtin stays beside the transcription grammar', () => {
    expect(grammarsOf(sizeQuestion, on('w3c'))).toEqual([
      { kind: 'builtin', mode: 'dtmf', src: 'builtin:dtmf/digits' },
      { kind: 'transcription', src: ENGINE },
    ]);
  });

  it.each([
    ['w3c', 'date', 'builtin:dtmf/digits?length=8'],
    ['w3c', 'yesno', 'builtin:dtmf/boolean'],
    ['cisco-vvb', 'number', 'builtin:dtmf/digits'],
    ['voxeo-prophecy', 'number', 'builtin:dtmf/number'],
    ['voxeo-prophecy', 'date', 'builtin:dtmf/date'],
  ] as const)(
    'when %s asks for a %s with transcription on, then %s stays beside the engine',
    (dialect, entityType, dtmf) => {
      const answer: AnswerSpec = { ...sizeQuestion, await: { kind: 'entity', entityType } };
      expect(grammarsOf(answer, on(dialect, 'https://asr.example.com/dictation.grxml'))).toEqual([
        { kind: 'builtin', mode: 'dtmf', src: dtmf },
        { kind: 'transcription', src: 'https://asr.example.com/dictation.grxml' },
      ]);
    },
  );

  it('when the node has its own grammars, then its DTMF ones stay and its voice ones give way to transcription', () => {
    const answer: AnswerSpec = {
      ...sizeQuestion,
      overrides: {
        grammar: [
          { mode: 'dtmf', src: 'https://grammars.example.com/party-keys.grxml' },
          { mode: 'voice', src: 'https://grammars.example.com/party.grxml' },
        ],
      },
    };
    expect(grammarsOf(answer, on('w3c'))).toEqual([
      { kind: 'uri', mode: 'dtmf', src: 'https://grammars.example.com/party-keys.grxml' },
      { kind: 'transcription', src: ENGINE },
    ]);
    // transcription off: the node's grammars as they are
    expect(
      grammarsOf(answer, settingsWith({ transcription: { enabled: false } })).map((g) => g.kind),
    ).toEqual(['uri', 'uri']);
  });

  it('when an intent is asked for, then the transcription grammar alone takes it (intents have no keys)', () => {
    expect(grammarsOf({ ...sizeQuestion, await: { kind: 'intent' } }, on('w3c'))).toEqual([
      { kind: 'transcription', src: ENGINE },
    ]);
  });

  it('when the dialect has no transcription (jvoicexml), then the entity keeps its own grammars, voice and DTMF', () => {
    const grammars = grammarsOf(sizeQuestion, on('jvoicexml'));
    expect(grammars.map((g) => ('mode' in g ? g.mode : g.kind))).toEqual(['dtmf', 'voice']);
    expect(grammars.some((g) => g.kind === 'transcription')).toBe(false);
  });

  it('when the document is rendered, then its field holds the keypad grammar and the transcription grammar', () => {
    const ctx: DocumentContext = {
      settings: on('w3c'),
      agent,
      callId: 'c-1',
      turn: 2,
      submitUrl: 'https://gateway.example.com/ivr/hooks/st-1?token=t',
      lang: 'en-US',
    };
    const field = findAll(parseXml(renderDocument(toVxmlDocument(sizeQuestion, ctx))), 'field')[0]!;
    expect(field.children.filter((c) => c.name === 'grammar').map((g) => g.attrs)).toEqual([
      { mode: 'dtmf', src: 'builtin:dtmf/digits' },
      { src: ENGINE },
    ]);
  });
});

describe('a keyed answer at the webhook', () => {
  const read = (params: Record<string, string>, settings = settingsWith({ confidenceThreshold: 50 })) =>
    toTurnInput(readWebhookRequest(params), false, settings, agent);

  it('when 4 is keyed, then the agent gets the keys as DTMF with their interpretation', () => {
    const r = read({
      callId: 'c-1',
      turn: '2',
      message: '4',
      interpretation: '4',
      confidence: '1.0',
      inputmode: 'dtmf',
    });
    expect(r.input).toMatchObject({
      kind: 'utterance',
      text: '4',
      inputmode: 'dtmf',
      belowThreshold: false,
      asr: { Inputmode: 'dtmf', interpretation: '4' },
    });
  });

  it('when a browser reports keys with a low confidence, then the confidence threshold does not turn them into no match', () => {
    const keyed = read({
      callId: 'c-1',
      turn: '2',
      message: '4',
      interpretation: '4',
      confidence: '0',
      inputmode: 'dtmf',
    });
    expect(keyed.input).toMatchObject({ kind: 'utterance', inputmode: 'dtmf', belowThreshold: false });
    // the same confidence from the recogniser is below the threshold
    const spoken = read({
      callId: 'c-1',
      turn: '2',
      message: 'four',
      interpretation: 'four',
      confidence: '0',
      inputmode: 'voice',
    });
    expect(spoken.input).toMatchObject({ kind: 'utterance', inputmode: 'voice', belowThreshold: true });
  });

  it('when keys come as an NLSML result, then their input mode is DTMF', () => {
    const nlsml =
      '<result><interpretation confidence="0"><input mode="dtmf">2 0 2 7 0 3 1 4</input><instance>20270314</instance></interpretation></result>';
    const r = read({ callId: 'c-1', turn: '2', message: '', nlsml });
    expect(r.input).toMatchObject({
      kind: 'utterance',
      text: '2 0 2 7 0 3 1 4',
      inputmode: 'dtmf',
      belowThreshold: false,
      asr: { interpretation: '20270314' },
    });
  });
});
