/**
 * The intent grammar prepared with the compiled agent (issue 39, item 4): an intent question
 * rendered from it is byte for byte the document rendered from a grammar built on the turn from
 * the agent's phrases (as turns did before), for the demo agent and the bilingual demo agent, in
 * every language of the call and every dialect.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bilingualDemoAgentDefinition,
  compileAgent,
  demoAgentDefinition,
  listIntentPhrases,
  type CompiledAgent,
} from '../../src/agent/index.js';
import type { AnswerSpec } from '../../src/ivr/call-session.js';
import { toVxmlDocument, type DocumentContext } from '../../src/ivr/document-mapper.js';
import { ivrSettingsSchema } from '../../src/ivr-settings/ivr-settings-schema.js';
import {
  buildIntentGrammar,
  dialectNames,
  renderDocument,
  renderSrgsDocument,
  type AskDocument,
  type DialectName,
  type FieldGrammar,
  type SrgsFieldGrammar,
} from '../../src/vxml/index.js';

const agents: Record<string, CompiledAgent> = {};
beforeAll(async () => {
  agents.demo = await compileAgent(demoAgentDefinition);
  agents.bilingual = await compileAgent(bilingualDemoAgentDefinition);
});

/** The grammar as a turn built it before it was prepared: the call's language's phrases, or the default's with the app's language. */
function builtOnTheTurn(agent: CompiledAgent, callLang: string, appLang: string): SrgsFieldGrammar {
  const other = callLang !== agent.languages[0] && agent.languages.includes(callLang);
  const phrases = listIntentPhrases(agent, other ? callLang : undefined).map((p) => ({
    name: p.intent,
    utterances: p.utterances,
  }));
  return buildIntentGrammar(phrases, { lang: other ? callLang : appLang });
}

const isIntentGrammar = (g: FieldGrammar): g is SrgsFieldGrammar => g.kind === 'srgs' && g.root === 'intents';

function askFor(
  agent: CompiledAgent,
  dialect: DialectName,
  callLang: string,
  languageKeys: string[],
): AskDocument {
  const answer: AnswerSpec = {
    action: 'ask',
    prompt: [{ type: 'text', text: 'How can I help?' }],
    await: { kind: 'intent', languageKeys },
    language: callLang,
  };
  const ctx: DocumentContext = {
    settings: ivrSettingsSchema.parse({ enabled: true, dialect }),
    agent,
    callId: 'c-prepared',
    from: '+15550001111',
    turn: 3,
    submitUrl: 'https://gateway.example.com/ivr/hooks/st-1?token=t',
    lang: 'en-US',
  };
  return toVxmlDocument(answer, ctx) as AskDocument;
}

describe('the intent grammar prepared with the compiled agent', () => {
  for (const name of ['demo', 'bilingual']) {
    for (const dialect of dialectNames) {
      it(`when the ${name} agent asks for an intent in ${dialect}, then the document is the one a grammar built on the turn gives, in every language`, () => {
        const agent = agents[name]!;
        for (const callLang of [...agent.languages, 'fr']) {
          for (const keys of [[], ['1', '2']]) {
            const doc = askFor(agent, dialect, callLang, keys);
            const prepared = doc.grammars.find(isIntentGrammar)!;
            // the prepared path is the one taken: the agent's items, with their markup
            expect(prepared.prepared?.items).toBe(prepared.items);
            expect(prepared.items.length).toBeGreaterThan(5);
            const onTheTurn = builtOnTheTurn(agent, callLang, 'en-US');
            expect(prepared.items).toEqual(onTheTurn.items);
            const perTurn: AskDocument = {
              ...doc,
              grammars: doc.grammars.map((g) => (isIntentGrammar(g) ? onTheTurn : g)),
            };
            const xml = renderDocument(doc, { dialect });
            expect(xml).toContain('<one-of><item>');
            expect(xml, `${callLang} ${keys.join(',')}`).toBe(renderDocument(perTurn, { dialect }));
          }
        }
      });
    }

    it(`when the ${name} agent's grammar is written as a standalone SRGS document, then it is the one built on the turn`, () => {
      const agent = agents[name]!;
      for (const lang of agent.languages) {
        expect(renderSrgsDocument(agent.intentGrammars.get(lang)!)).toBe(
          renderSrgsDocument(builtOnTheTurn(agent, lang, lang)),
        );
      }
    });
  }

  it('when a prepared grammar is given other items, then the document holds those items, not the prepared markup', () => {
    const doc = askFor(agents.demo!, 'w3c', 'en', []);
    const items = [{ phrase: 'only this', tag: 'Only' }];
    const changed: AskDocument = {
      ...doc,
      grammars: doc.grammars.map((g) => (isIntentGrammar(g) ? { ...g, items } : g)),
    };
    const xml = renderDocument(changed);
    expect(xml).toContain("<one-of><item>only this<tag>out='Only';</tag></item></one-of>");
    expect(xml).not.toContain(agents.demo!.intentGrammars.get('en')!.items[0]!.phrase + '<tag>');
  });
});
