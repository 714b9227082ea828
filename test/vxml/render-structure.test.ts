/**
 * Structural checks of each document kind, reading the rendered XML back with fast-xml-parser.
 */
import { describe, it, expect } from 'vitest';
import { renderDocument, type DialectName, type VxmlDocument } from '../../src/vxml/index.js';
import { assertValidVxml } from '../helpers/vxml-schema.js';
import { askIntent, CALL_ID, extraSamples, FROM, samples, text, WEBHOOK } from './sample-documents.js';
import { decodeEcmaString, deepText, find, findAll, parseXml, type XNode } from './xml-tree.js';

const rendered: string[] = [];
function tree(doc: VxmlDocument, dialect?: DialectName): XNode {
  const xml = renderDocument(doc, dialect ? { dialect } : {});
  rendered.push(xml);
  return parseXml(xml);
}

const varsOf = (n: XNode) => n.children.filter((c) => c.name === 'var').map((v) => [v.attrs.name, v.attrs.expr]);
const names = (n: XNode) => n.children.map((c) => c.name);
const literal = (n: XNode) => decodeEcmaString(n.attrs.expr!);

/** Names visible to an element: var/field/subdialog/transfer names of it and its ancestors. */
function declaredAround(root: XNode, target: XNode): Set<string> {
  const out = new Set<string>();
  const walk = (n: XNode, path: XNode[]): boolean => {
    if (n === target) {
      for (const a of [...path, n]) for (const c of a.children) if (['var', 'field', 'subdialog', 'transfer'].includes(c.name)) out.add(c.attrs.name!);
      return true;
    }
    return n.children.some((c) => walk(c, [...path, n]));
  };
  walk(root, []);
  return out;
}

describe('ask document', () => {
  const doc = tree(askIntent);
  const field = find(doc, 'field');

  it('when an ask is rendered, then it declares callId, from, turn (as a string literal) and the failure counter first', () => {
    expect(doc.attrs).toMatchObject({ version: '2.1', xmlns: 'http://www.w3.org/2001/vxml', 'xml:lang': 'en-US' });
    expect(varsOf(doc)).toEqual([
      ['callId', `'${CALL_ID}'`],
      ['from', `'${FROM}'`],
      ['turn', "'1'"],
      ['failures', '0'],
    ]);
  });

  it('when an ask is rendered, then document properties come before the hangup catch and the form', () => {
    expect(names(doc)).toEqual(['var', 'var', 'var', 'var', 'property', 'property', 'property', 'property', 'catch', 'form']);
    expect(findAll(doc, 'property').map((p) => [p.attrs.name, p.attrs.value])).toEqual([
      ['timeout', '4s'], ['bargein', 'false'], ['confidencelevel', '0.5'], ['fetchtimeout', '10s'],
    ]);
    const hangup = doc.children.find((c) => c.name === 'catch')!;
    expect(hangup.attrs.event).toBe('connection.disconnect.hangup');
    expect(literal(find(hangup, 'var'))).toBe('hangup');
    expect(find(hangup, 'submit').attrs).toEqual({ next: WEBHOOK, method: 'post', namelist: 'callId turn event' });
  });

  it('when an ask is the first document of a subdialog, then its form declares callId and from with the call values, message and to empty', () => {
    const form = find(tree({ ...askIntent, subdialogEntry: true }), 'form');
    expect(form.children.filter((c) => c.name === 'var').map((v) => [v.attrs.name, literal(v)])).toEqual([
      ['callId', CALL_ID], ['message', ''], ['from', FROM], ['to', ''],
    ]);
  });

  it('when the data extraction key is "user input", then the one field is named userinput and has one merged prompt', () => {
    expect(findAll(doc, 'form').map((f) => f.attrs.id)).toEqual(['ask']);
    expect(field.attrs.name).toBe('userinput');
    const prompts = field.children.filter((c) => c.name === 'prompt');
    expect(prompts).toHaveLength(1);
    expect(names(prompts[0]!)).toEqual(['break']);
    expect(deepText(prompts[0]!)).toBe("Welcome to Luigi's.How can I help you today?");
  });

  it('when intents are given, then the inline grammar tags each normalised phrase with its intent', () => {
    const g = find(field, 'grammar');
    expect(g.attrs).toEqual({ type: 'application/srgs+xml', version: '1.0', mode: 'voice', root: 'intents', 'tag-format': 'semantics/1.0' });
    expect(find(g, 'rule').attrs).toEqual({ id: 'intents', scope: 'public' });
    expect(findAll(g, 'item').map((i) => [i.text, find(i, 'tag').text])).toEqual([
      ['book a table', "out='BookTable';"],
      ['reserve a table for tonight', "out='BookTable';"],
      ['check my booking', "out='CheckBooking';"],
      ['change my booking', "out='CheckBooking';"],
    ]);
  });

  it('when no input and no match happen, then one handler counts them together and submits maxretries past the retries', () => {
    expect(findAll(field, 'noinput')).toHaveLength(0);
    expect(findAll(field, 'nomatch')).toHaveLength(0);
    const c = field.children.find((x) => x.name === 'catch')!;
    expect(c.attrs).toEqual({ event: 'noinput nomatch' });
    expect(find(c, 'assign').attrs).toEqual({ name: 'failures', expr: 'failures + 1' });
    const branch = find(c, 'if');
    expect(branch.attrs.cond).toBe('failures > 1');
    expect(names(branch)).toEqual(['var', 'submit', 'elseif', 'prompt', 'reprompt', 'else', 'prompt', 'reprompt']);
    expect(literal(branch.children[0]!)).toBe('maxretries');
    expect(branch.children[1]!.attrs.namelist).toBe('callId turn event');
    expect(branch.children[2]!.attrs.cond).toBe("_event == 'noinput'");
    expect(deepText(branch.children[3]!)).toBe("Sorry, I didn't hear anything.");
    expect(deepText(branch.children[6]!)).toBe("Sorry, I didn't get that.");
  });

  it('when the field is filled, then message, interpretation, confidence and inputmode come from the field and its shadow', () => {
    const filled = find(field, 'filled');
    expect(varsOf(filled)).toEqual([
      ['message', 'userinput$.utterance'],
      ['interpretation', 'userinput'],
      ['confidence', 'userinput$.confidence'],
      ['inputmode', 'userinput$.inputmode'],
    ]);
    expect(find(filled, 'submit').attrs).toEqual({ next: WEBHOOK, method: 'post', namelist: 'callId from turn message interpretation confidence inputmode' });
  });

  it.each([
    [0, '1'], [3, '3'], [10, '10'], [99, '10'], [Number.NaN, '3'],
  ])('when retries is %s, then maxretries comes after %s failures', (retries, shown) => {
    const t = tree({ ...askIntent, retries });
    expect(find(find(t, 'field'), 'if').attrs.cond).toBe(`failures > ${shown}`);
  });

  it('when hangupCatch is off and there is no prompt, then neither is written', () => {
    const t = tree({ ...askIntent, hangupCatch: false, prompt: [] });
    expect(t.children.filter((c) => c.name === 'catch')).toHaveLength(0);
    expect(find(t, 'field').children.filter((c) => c.name === 'prompt')).toHaveLength(0);
  });
});

describe('the other gateway documents', () => {
  it('when a say is rendered, then its block speaks and submits event=continue with callId and turn', () => {
    const t = tree(samples.say);
    expect(varsOf(t).map(([n]) => n)).toEqual(['callId', 'turn']);
    const block = find(t, 'block');
    expect(names(block)).toEqual(['prompt', 'var', 'submit']);
    expect(literal(block.children[1]!)).toBe('continue');
    expect(block.children[2]!.attrs.namelist).toBe('callId turn event');
  });

  it('when an end returns, then endOfConversation is true and returned with callId and valid extra variables', () => {
    const t = tree({ kind: 'end', callId: CALL_ID, prompt: [text('Bye')], behaviour: 'return', returnVars: { reason: 'done', 'not valid': 'x', callId: 'y' } });
    const block = find(t, 'block');
    expect(varsOf(block)).toEqual([['endOfConversation', 'true'], ['reason', "'done'"]]);
    expect(find(block, 'return').attrs.namelist).toBe('endOfConversation callId reason');
    expect(literal(find(t, 'var'))).toBe(CALL_ID);
  });

  it('when an end terminates the call, then it speaks and disconnects without returning', () => {
    const t = tree(extraSamples['end-disconnect']!);
    expect(names(find(t, 'block'))).toEqual(['prompt', 'disconnect']);
    expect(findAll(t, 'return')).toHaveLength(0);
  });

  it('when a transfer is rendered, then it bridges to the destination with aai and reports the outcome from filled and errors', () => {
    const t = tree(samples.transfer);
    expect(varsOf(t).map(([n, e]) => [n, decodeEcmaString(e!)])).toEqual([['callId', CALL_ID], ['turn', '5'], ['event', 'transfer']]);
    const x = find(t, 'transfer');
    expect(x.attrs).toEqual({ name: 'xfer', dest: 'tel:+15550100', type: 'bridge', connecttimeout: '30s', aai: 'skillGroupId=sg-5e8a2c17;skillGroupName=Reservations' });
    expect(varsOf(find(x, 'filled'))).toEqual([['transferResult', 'xfer']]);
    const c = find(x, 'catch');
    expect(c.attrs.event).toBe('error.connection error.unsupported error.noresource');
    expect(varsOf(c)).toEqual([['transferResult', '_event']]);
    for (const s of findAll(x, 'submit')) expect(s.attrs.namelist).toBe('callId turn event transferResult');
  });

  it('when a wait is rendered, then it holds and polls with the same turn and fetchaudio', () => {
    const t = tree(samples.wait);
    expect(literal(t.children[1]!)).toBe('2');
    const s = find(t, 'submit');
    expect(s.attrs).toEqual({ next: WEBHOOK, fetchaudio: 'https://gateway.example.com/audio/hold-music.wav', method: 'post', namelist: 'callId turn event' });
    expect(literal(findAll(t, 'var')[2]!)).toBe('poll');
  });

  it('when an error is rendered, then it apologises and returns endOfConversation and the error name', () => {
    const block = find(tree(samples.error), 'block');
    expect(varsOf(block)).toEqual([['endOfConversation', 'true'], ['error', "'store_unavailable'"]]);
    expect(find(block, 'return').attrs.namelist).toBe('endOfConversation error');
  });

  it('when a bootstrap is rendered, then the four parameters are form variables submitted back', () => {
    const t = tree(samples.bootstrap);
    expect(t.attrs['xml:lang']).toBeUndefined();
    const form = find(t, 'form');
    expect(varsOf(form)).toEqual([['callId', undefined], ['message', undefined], ['from', undefined], ['to', undefined]]);
    expect(find(form, 'submit').attrs.namelist).toBe('callId message from to');
  });
});

describe('sandbox documents', () => {
  it('when a login is rendered, then it plays the error, collects PIN and secret by DTMF and submits them with the attempt', () => {
    const t = tree(samples['sandbox-login']);
    expect(literal(t.children[0]!)).toBe('att-7f3a9c');
    const form = find(t, 'form');
    expect(names(form)).toEqual(['block', 'field', 'field', 'catch', 'filled']);
    const [pin, secret] = findAll(form, 'field');
    expect(find(pin!, 'grammar').attrs).toEqual({ mode: 'dtmf', src: 'builtin:dtmf/digits?length=6' });
    expect(find(secret!, 'grammar').attrs).toEqual({ mode: 'dtmf', src: 'builtin:dtmf/digits?minlength=4;maxlength=8' });
    const filled = form.children.at(-1)!;
    expect(filled.attrs).toEqual({ mode: 'all', namelist: 'pin secret' });
    expect(find(filled, 'submit').attrs.namelist).toBe('attempt pin secret');
    const exceeded = find(form.children[3]!, 'if');
    expect(exceeded.attrs.cond).toBe('failures > 3');
    expect(names(exceeded).slice(0, 2)).toEqual(['prompt', 'disconnect']);
  });

  it('when a login has no error prompt, then it starts with the PIN field', () => {
    const doc = { ...samples['sandbox-login'], errorPrompt: undefined } as VxmlDocument;
    expect(names(find(tree(doc), 'form'))[0]).toBe('field');
  });

  it('when a login is rendered for jvoicexml, then running out of retries exits after the goodbye (quirk 14)', () => {
    const exceeded = find(find(tree(samples['sandbox-login'], 'jvoicexml'), 'catch'), 'if');
    expect(names(exceeded).slice(0, 2)).toEqual(['prompt', 'exit']);
  });

  it('when a connect is rendered, then the webhook runs as a subdialog with the four params and the call ends after it', () => {
    const t = tree(samples['sandbox-connect']);
    const c = t.children[0]!;
    expect(c.attrs.event).toBe('error.badfetch');
    expect(names(c)).toEqual(['prompt', 'disconnect']);
    const sub = find(t, 'subdialog');
    expect(sub.attrs).toEqual({ name: 'bot', src: WEBHOOK });
    expect(findAll(sub, 'param').map((p) => [p.attrs.name, decodeEcmaString(p.attrs.expr!)])).toEqual([
      ['callId', CALL_ID], ['message', ''], ['from', FROM], ['to', 'st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'],
    ]);
    expect(names(find(sub, 'filled'))).toEqual(['prompt', 'disconnect']);
  });

  it('when an announcement is rendered, then it speaks and disconnects', () => {
    expect(names(find(tree(samples['announce-disconnect']), 'block'))).toEqual(['prompt', 'disconnect']);
  });
});

describe('every kind', () => {
  const all: Record<string, VxmlDocument> = { ...samples, ...extraSamples };
  it.each(Object.keys(all))('when %s is rendered, then every name it submits or returns is declared where it is sent', (name) => {
    const t = tree(all[name]!);
    for (const s of [...findAll(t, 'submit'), ...findAll(t, 'return')]) {
      const visible = declaredAround(t, s);
      for (const n of s.attrs.namelist!.split(' ')) expect(visible, `${name}: ${n}`).toContain(n);
    }
  });

  it.each(['ask', 'say', 'transfer', 'wait'] as const)('when a %s document submits, then callId and turn are document variables and turn is a string', (kind) => {
    const t = tree(samples[kind]);
    const docVars = Object.fromEntries(varsOf(t));
    expect(Object.keys(docVars)).toEqual(expect.arrayContaining(['callId', 'turn']));
    expect(docVars.turn).toMatch(/^'.*'$/);
  });

  it('when every document rendered in this file is validated, then vxml.xsd accepts them all', async () => {
    await assertValidVxml(rendered);
  });
});
