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

const varsOf = (n: XNode) =>
  n.children.filter((c) => c.name === 'var').map((v) => [v.attrs.name, v.attrs.expr]);
const names = (n: XNode) => n.children.map((c) => c.name);
const literal = (n: XNode) => decodeEcmaString(n.attrs.expr!);

/** Names visible to an element: var/field/subdialog/transfer names of it and its ancestors. */
function declaredAround(root: XNode, target: XNode): Set<string> {
  const out = new Set<string>();
  const walk = (n: XNode, path: XNode[]): boolean => {
    if (n === target) {
      for (const a of [...path, n])
        for (const c of a.children)
          if (['var', 'field', 'subdialog', 'transfer'].includes(c.name)) out.add(c.attrs.name!);
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

  it('when an ask is rendered, then it declares callId, from, turn (as a string literal), the failure counter and what it submits first', () => {
    expect(doc.attrs).toMatchObject({
      version: '2.1',
      xmlns: 'http://www.w3.org/2001/vxml',
      'xml:lang': 'en-US',
    });
    expect(varsOf(doc)).toEqual([
      ['callId', `'${CALL_ID}'`],
      ['from', `'${FROM}'`],
      ['turn', "'1'"],
      ['failures', '0'],
      ['event', "''"],
      ['interpretation', "''"],
      ['confidence', "''"],
      ['inputmode', "''"],
      ['badfetches', '0'],
      ['sent', "''"],
    ]);
  });

  it('when an ask is rendered, then document properties come before the hangup catch and the form', () => {
    expect(names(doc)).toEqual([
      ...Array<string>(10).fill('var'),
      'property',
      'property',
      'property',
      'property',
      'catch',
      'form',
    ]);
    expect(findAll(doc, 'property').map((p) => [p.attrs.name, p.attrs.value])).toEqual([
      ['timeout', '4s'],
      ['bargein', 'false'],
      ['confidencelevel', '0.5'],
      ['fetchtimeout', '10s'],
    ]);
    const hangup = doc.children.find((c) => c.name === 'catch')!;
    expect(hangup.attrs.event).toBe('connection.disconnect.hangup');
    expect(findAll(hangup, 'assign').map((a) => [a.attrs.name, literal(a)])).toEqual([
      ['event', 'hangup'],
      ['sent', 'event'],
    ]);
    expect(find(hangup, 'submit').attrs).toEqual({
      next: WEBHOOK,
      method: 'post',
      namelist: 'callId turn event',
    });
  });

  it('when an ask is rendered, then its form declares the subdialog params callId and from with the call values, message and to empty', () => {
    const form = find(doc, 'form');
    expect(form.children.filter((c) => c.name === 'var').map((v) => [v.attrs.name, literal(v)])).toEqual([
      ['callId', CALL_ID],
      ['message', ''],
      ['from', FROM],
      ['to', ''],
    ]);
  });

  it('when a submit of the ask fails, then the form resends the one that went out after a pause, twice at most, then apologises and returns', () => {
    const c = find(find(doc, 'form'), 'catch');
    expect(c.attrs.event).toBe('error.badfetch');
    expect(find(c, 'assign').attrs).toEqual({ name: 'badfetches', expr: 'badfetches + 1' });
    const branch = find(c, 'if');
    expect(branch.attrs.cond).toBe("badfetches > 2 || sent == ''");
    expect(names(branch)).toEqual([
      'prompt',
      'var',
      'var',
      'return',
      'elseif',
      'prompt',
      'submit',
      'else',
      'prompt',
      'submit',
    ]);
    expect(deepText(branch.children[0]!)).toBe(
      'Sorry, something went wrong on our side. Please try again later.',
    );
    expect(literal(branch.children[2]!)).toBe('fetch_failed');
    expect(branch.children[4]!.attrs.cond).toBe("sent == 'event'");
    expect(find(branch.children[5]!, 'break').attrs.time).toBe('1s');
    expect(branch.children[6]!.attrs.namelist).toBe('callId turn event');
    expect(branch.children[9]!.attrs.namelist).toBe(
      'callId from turn message interpretation confidence inputmode',
    );
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
    expect(g.attrs).toEqual({
      type: 'application/srgs+xml',
      version: '1.0',
      mode: 'voice',
      root: 'intents',
      'tag-format': 'semantics/1.0',
    });
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
    expect(names(branch)).toEqual([
      'assign',
      'assign',
      'submit',
      'elseif',
      'prompt',
      'reprompt',
      'else',
      'prompt',
      'reprompt',
    ]);
    expect(literal(branch.children[0]!)).toBe('maxretries');
    expect(literal(branch.children[1]!)).toBe('event');
    expect(branch.children[2]!.attrs.namelist).toBe('callId turn event');
    expect(branch.children[3]!.attrs.cond).toBe("_event == 'noinput'");
    expect(deepText(branch.children[4]!)).toBe("Sorry, I didn't hear anything.");
    expect(deepText(branch.children[7]!)).toBe("Sorry, I didn't get that.");
  });

  it('when the field is filled, then message, interpretation, confidence and inputmode come from the field and its shadow', () => {
    const filled = find(field, 'filled');
    expect(findAll(filled, 'assign').map((a) => [a.attrs.name, a.attrs.expr])).toEqual([
      ['message', 'userinput$.utterance'],
      ['interpretation', 'userinput'],
      ['confidence', 'userinput$.confidence'],
      ['inputmode', 'userinput$.inputmode'],
      ['sent', "'input'"],
    ]);
    expect(find(filled, 'submit').attrs).toEqual({
      next: WEBHOOK,
      method: 'post',
      namelist: 'callId from turn message interpretation confidence inputmode',
    });
  });

  it.each([
    [0, '1'],
    [3, '3'],
    [10, '10'],
    [99, '10'],
    [Number.NaN, '3'],
  ])('when retries is %s, then maxretries comes after %s failures', (retries, shown) => {
    const t = tree({ ...askIntent, retries });
    expect(find(find(t, 'field'), 'if').attrs.cond).toBe(`failures > ${shown}`);
  });

  it('when hangupCatch is off and there is no prompt, then neither is written', () => {
    const t = tree({ ...askIntent, hangupCatch: false, prompt: [] });
    expect(t.children.filter((c) => c.name === 'catch')).toHaveLength(0);
    expect(
      find(t, 'form')
        .children.filter((c) => c.name === 'catch')
        .map((c) => c.attrs.event),
    ).toEqual(['error.badfetch']);
    expect(find(t, 'field').children.filter((c) => c.name === 'prompt')).toHaveLength(0);
  });
});

describe('the other gateway documents', () => {
  it('when a say is rendered, then its block speaks and submits event=continue with callId and turn', () => {
    const t = tree(samples.say);
    expect(varsOf(t).map(([n]) => n)).toEqual(['callId', 'turn', 'event', 'badfetches']);
    expect(literal(t.children[2]!)).toBe('continue');
    const block = find(t, 'block');
    expect(names(block)).toEqual(['prompt', 'submit']);
    expect(block.children[1]!.attrs.namelist).toBe('callId turn event');
    const resend = find(find(find(t, 'form'), 'catch'), 'if');
    expect(resend.attrs.cond).toBe('badfetches > 2');
    expect(names(resend)).toEqual(['prompt', 'var', 'var', 'return', 'else', 'prompt', 'submit']);
    expect(resend.children[6]!.attrs.namelist).toBe('callId turn event');
  });

  it('when an end returns, then endOfConversation is true and returned with callId and valid extra variables', () => {
    const t = tree({
      kind: 'end',
      callId: CALL_ID,
      prompt: [text('Bye')],
      behaviour: 'return',
      returnVars: { reason: 'done', 'not valid': 'x', callId: 'y' },
    });
    const block = find(t, 'block');
    expect(varsOf(block)).toEqual([
      ['endOfConversation', 'true'],
      ['reason', "'done'"],
    ]);
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
    expect(
      varsOf(t)
        .slice(0, 4)
        .map(([n, e]) => [n, decodeEcmaString(e!)]),
    ).toEqual([
      ['callId', CALL_ID],
      ['turn', '5'],
      ['event', 'transfer'],
      ['transferResult', ''],
    ]);
    const x = find(t, 'transfer');
    expect(x.attrs).toEqual({
      name: 'xfer',
      dest: 'tel:+15550100',
      type: 'bridge',
      connecttimeout: '30s',
      aai: 'skillGroupId=sg-5e8a2c17;skillGroupName=Reservations',
    });
    const assigned = (n: XNode) => findAll(n, 'assign').map((a) => [a.attrs.name, a.attrs.expr]);
    expect(assigned(find(x, 'filled'))).toEqual([
      ['transferResult', 'xfer'],
      ['sent', "'event'"],
    ]);
    const c = find(x, 'catch');
    expect(c.attrs.event).toBe('error.connection error.unsupported error.noresource');
    expect(assigned(c)).toEqual([
      ['transferResult', '_event'],
      ['sent', "'event'"],
    ]);
    for (const s of findAll(x, 'submit')) expect(s.attrs.namelist).toBe('callId turn event transferResult');
  });

  it('when a wait is rendered, then it holds and polls with the same turn and fetchaudio', () => {
    const t = tree(samples.wait);
    expect(literal(t.children[1]!)).toBe('2');
    const s = find(t, 'submit');
    expect(s.attrs).toEqual({
      next: WEBHOOK,
      fetchaudio: 'https://gateway.example.com/audio/hold-music.wav',
      method: 'post',
      namelist: 'callId turn event',
    });
    expect(literal(findAll(t, 'var')[2]!)).toBe('poll');
    expect(find(find(find(t, 'form'), 'catch'), 'submit').attrs).toEqual(s.attrs);
  });

  it("when a retry document resubmits the caller's words, then the subdialog variables of its form hold them", () => {
    const t = tree({
      ...samples.wait,
      resubmit: { retry: '1', message: 'book a table', from: FROM, inputmode: 'voice' },
    } as VxmlDocument);
    expect(varsOf(find(t, 'form')).map(([n, e]) => [n, decodeEcmaString(e!)])).toEqual([
      ['callId', CALL_ID],
      ['message', 'book a table'],
      ['from', FROM],
      ['to', ''],
    ]);
    expect(varsOf(t).map(([n]) => n)).toEqual(['callId', 'turn', 'retry', 'inputmode', 'badfetches']);
    expect(find(find(t, 'block'), 'submit').attrs.namelist).toBe('callId turn retry message from inputmode');
  });

  it('when a free-text ask has no grammar, then a record takes the answer and submits its duration as event=recording', () => {
    const t = tree({ ...askIntent, grammars: [] });
    const r = find(t, 'record');
    expect(r.attrs).toEqual({ name: 'userinput', beep: 'true', maxtime: '60s', finalsilence: '3s' });
    expect(findAll(find(r, 'filled'), 'assign').map((a) => [a.attrs.name, a.attrs.expr])).toEqual([
      ['recording', 'userinput$.duration'],
      ['event', "'recording'"],
      ['sent', "'record'"],
    ]);
    expect(findAll(find(find(t, 'form'), 'catch'), 'submit').map((x) => x.attrs.namelist)).toEqual([
      'callId turn event',
      'callId from turn event recording',
    ]);
  });

  it('when an error is rendered, then it apologises and returns endOfConversation and the error name', () => {
    const t = tree(samples.error);
    expect(varsOf(find(t, 'form')).map(([n]) => n)).toEqual(['callId', 'message', 'from', 'to']);
    const block = find(t, 'block');
    expect(varsOf(block)).toEqual([
      ['endOfConversation', 'true'],
      ['error', "'store_unavailable'"],
    ]);
    expect(find(block, 'return').attrs.namelist).toBe('endOfConversation error');
  });

  it('when a bootstrap is rendered, then the four parameters are form variables submitted back', () => {
    const t = tree(samples.bootstrap);
    expect(t.attrs['xml:lang']).toBeUndefined();
    const form = find(t, 'form');
    expect(varsOf(form)).toEqual([
      ['callId', undefined],
      ['message', undefined],
      ['from', undefined],
      ['to', undefined],
    ]);
    expect(find(form, 'submit').attrs.namelist).toBe('callId message from to');
  });
});

describe('sandbox documents', () => {
  it('when a login is rendered, then it plays the error, collects PIN and secret by DTMF and submits them with the attempt', () => {
    const t = tree(samples['sandbox-login']);
    expect(literal(t.children[0]!)).toBe('att-7f3a9c');
    const form = find(t, 'form');
    expect(names(form)).toEqual(['block', 'field', 'field', 'catch', 'catch', 'filled']);
    expect(form.children[3]!.attrs.event).toBe('error.badfetch');
    expect(names(form.children[3]!)).toEqual(['prompt', 'disconnect']);
    const [pin, secret] = findAll(form, 'field');
    expect(find(pin!, 'grammar').attrs).toEqual({ mode: 'dtmf', src: 'builtin:dtmf/digits?length=6' });
    expect(find(secret!, 'grammar').attrs).toEqual({
      mode: 'dtmf',
      src: 'builtin:dtmf/digits?minlength=4;maxlength=8',
    });
    const filled = form.children.at(-1)!;
    expect(filled.attrs).toEqual({ mode: 'all', namelist: 'pin secret' });
    expect(find(filled, 'submit').attrs.namelist).toBe('attempt pin secret');
    const exceeded = find(form.children[4]!, 'if');
    expect(exceeded.attrs.cond).toBe('failures > 3');
    expect(names(exceeded).slice(0, 2)).toEqual(['prompt', 'disconnect']);
  });

  it('when a login has no error prompt, then it starts with the PIN field', () => {
    const doc = { ...samples['sandbox-login'], errorPrompt: undefined } as VxmlDocument;
    expect(names(find(tree(doc), 'form'))[0]).toBe('field');
  });

  it('when a login is rendered for jvoicexml, then running out of retries exits after the goodbye (quirk 14)', () => {
    const exceeded = find(findAll(tree(samples['sandbox-login'], 'jvoicexml'), 'catch')[1]!, 'if');
    expect(names(exceeded).slice(0, 2)).toEqual(['prompt', 'exit']);
  });

  it('when a connect is rendered, then the webhook runs as a subdialog with the four params and the call ends after it', () => {
    const t = tree(samples['sandbox-connect']);
    expect(varsOf(t)).toEqual([
      ['callId', `'${CALL_ID}'`],
      ['returned', 'false'],
    ]);
    const [c, hungUp] = t.children.filter((x) => x.name === 'catch');
    expect(c!.attrs.event).toBe('error.badfetch');
    expect(names(c!)).toEqual(['prompt', 'disconnect']);
    // a hang-up that reaches this top-level document while the agent runs is reported to the webhook
    expect(hungUp!.attrs).toEqual({ event: 'connection.disconnect.hangup', cond: 'returned == false' });
    expect(names(hungUp!)).toEqual(['var', 'data', 'exit']);
    expect(find(hungUp!, 'data').attrs).toEqual({ src: WEBHOOK, method: 'post', namelist: 'callId event' });
    const sub = find(t, 'subdialog');
    expect(sub.attrs).toEqual({ name: 'bot', src: WEBHOOK });
    expect(findAll(sub, 'param').map((p) => [p.attrs.name, decodeEcmaString(p.attrs.expr!)])).toEqual([
      ['callId', CALL_ID],
      ['message', ''],
      ['from', FROM],
      ['to', 'st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'],
    ]);
    expect(names(find(sub, 'filled'))).toEqual(['assign', 'prompt', 'disconnect']);
  });

  it('when an announcement is rendered, then it speaks and disconnects', () => {
    expect(names(find(tree(samples['announce-disconnect']), 'block'))).toEqual(['prompt', 'disconnect']);
  });
});

describe('every kind', () => {
  const all: Record<string, VxmlDocument> = { ...samples, ...extraSamples };
  it.each(Object.keys(all))(
    'when %s is rendered, then every name it submits or returns is declared where it is sent',
    (name) => {
      const t = tree(all[name]!);
      for (const s of [...findAll(t, 'submit'), ...findAll(t, 'return')]) {
        const visible = declaredAround(t, s);
        for (const n of s.attrs.namelist!.split(' ')) expect(visible, `${name}: ${n}`).toContain(n);
      }
    },
  );

  it.each(['ask', 'say', 'transfer', 'wait'] as const)(
    'when a %s document submits, then callId and turn are document variables and turn is a string',
    (kind) => {
      const t = tree(samples[kind]);
      const docVars = Object.fromEntries(varsOf(t));
      expect(Object.keys(docVars)).toEqual(expect.arrayContaining(['callId', 'turn']));
      expect(docVars.turn).toMatch(/^'.*'$/);
    },
  );

  it('when every document rendered in this file is validated, then vxml.xsd accepts them all', async () => {
    await assertValidVxml(rendered);
  });
});
