/**
 * The questions the agent asks about an intent, as documents: the await of a real compiled agent's
 * "Did you want to …?" and "Do you want to …, or …?" turns, rendered in every dialect with
 * transcription off and on, are valid VoiceXML; the choice offers keys 1 and 2 and the labels.
 */
import { describe, expect, it } from 'vitest';
import {
  compileAgent,
  runTurn,
  type AwaitSpec as AgentAwait,
  type TurnResult,
} from '../../src/agent/index.js';
import {
  dialectNames,
  entityGrammars,
  renderDocument,
  withTranscription,
  type AwaitSpec,
  type VxmlDocument,
} from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { call, settings, voice } from '../agent/agent-test-kit.js';
import { askEntity } from './sample-documents.js';
import { findAll, parseXml } from './xml-tree.js';

const end = (text: string) => ({ start: 'say', nodes: { say: { type: 'end', text } } });
const agentWith = (nlu: Record<string, unknown>) =>
  compileAgent({
    language: 'en',
    welcomeDialog: 'welcome',
    fallbackDialog: 'welcome',
    nlu,
    intents: [
      {
        name: 'RefillPrescription',
        dialog: 'refill',
        confirm: 'always',
        utterances: ['refill my prescription', 'i need a refill'],
      },
      {
        name: 'StoreHours',
        dialog: 'hours',
        label: 'hear the store hours',
        utterances: ['what are your store hours', 'when are you open'],
      },
    ],
    dialogs: {
      welcome: { start: 'hi', nodes: { hi: { type: 'message', text: 'Hello.' } } },
      refill: end('Refilling.'),
      hours: end('Nine.'),
    },
  });

async function question(nlu: Record<string, unknown>, said: string): Promise<TurnResult> {
  const agent = await agentWith(nlu);
  const started = await runTurn(agent, { kind: 'start' }, null, call, settings, {});
  return runTurn(agent, voice(said), started.state, call, settings, {});
}

const asRendered = (spec: AgentAwait): AwaitSpec => spec;

describe('the documents of the intent questions', () => {
  it('when the confirmation and the choice are rendered in every dialect, transcription off and on, then each is valid VoiceXML', async () => {
    const confirm = await question({}, 'refill my prescription');
    const choose = await question({ threshold: 0.3, margin: 1 }, 'refill hours');
    expect(confirm.decision?.outcome).toBe('confirm');
    expect(choose.decision?.outcome).toBe('choose');
    const docs: string[] = [];
    for (const dialect of dialectNames) {
      for (const r of [confirm, choose]) {
        const grammars = entityGrammars(asRendered(r.await!), dialect, { lang: 'en-US' });
        for (const g of [grammars, withTranscription(grammars, dialect)]) {
          const doc: VxmlDocument = {
            ...askEntity,
            prompt: [{ type: 'text', text: r.promptText }],
            grammars: g,
          };
          docs.push(renderDocument(doc, { dialect }));
        }
      }
    }
    await assertValidVxml(docs);
  });

  it('when the choice is rendered, then its keypad grammar takes 1 and 2 and its voice grammar the labels and their own words', async () => {
    const choose = await question({ threshold: 0.3, margin: 1 }, 'refill hours');
    const xml = renderDocument(
      { ...askEntity, grammars: entityGrammars(asRendered(choose.await!), 'w3c') },
      { dialect: 'w3c' },
    );
    const grammars = findAll(parseXml(xml), 'grammar');
    const words = (mode: string) =>
      findAll(
        grammars.find((g) => g.attrs.mode === mode)!,
        'item',
      ).map((i) => i.text.trim());
    expect(words('dtmf')).toEqual(expect.arrayContaining(['1', '2']));
    expect(words('voice')).toEqual(
      expect.arrayContaining([
        'refill a prescription',
        'hear the store hours',
        'refill',
        'store',
        'hours',
        'first',
        'second',
        'neither',
      ]),
    );
  });
});
