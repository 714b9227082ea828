/**
 * The console's pure logic, without a browser: where a server error's JSON path is in the editor's
 * text, the dialog graph (edges, start, unreachable and missing nodes), reading suite files and
 * run result files (per-intent scores, confusion matrix), and the settings diff.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { lineOf, locatePath, parseErrorPath } from '../../../console/src/pages/agent/json-locate.js';
import { dialogGraphs } from '../../../console/src/pages/agent/dialog-graph.js';
import { readSuiteFile } from '../../../console/src/pages/testruns/suite-file.js';
import { readRunResults } from '../../../console/src/pages/testruns/run-results.js';
import { diff, humanize, setAt } from '../../../console/src/pages/settings/json-value.js';
import { demoAgentDefinition } from '../../../src/agent/index.js';

describe('locating an error path in the JSON text', () => {
  const text = JSON.stringify(
    {
      intents: [
        { name: 'A', dialog: 'x' },
        { name: 'B', dialog: 'missing' },
      ],
      dialogs: { d: { start: 's', nodes: { s: { type: 'mesage' } } } },
    },
    null,
    2,
  );

  it('when the path names an array member, then the brackets are read as indexes', () => {
    expect(parseErrorPath('body.dialogs.book.nodes.size.next[0].goto')).toEqual([
      'dialogs',
      'book',
      'nodes',
      'size',
      'next',
      0,
      'goto',
    ]);
    expect(parseErrorPath('body')).toEqual([]);
  });

  it('when the member exists, then its key and value are found at their line', () => {
    const r = locatePath(text, 'body.intents[1].dialog');
    expect(r?.exact).toBe(true);
    expect(text.slice(r!.from, r!.to)).toBe('"dialog": "missing"');
    expect(lineOf(text, r!.from)).toBe(text.split('\n').findIndex((l) => l.includes('"missing"')) + 1);
    expect(
      text.slice(...(({ from, to }) => [from, to])(locatePath(text, 'body.dialogs.d.nodes.s.type')!)),
    ).toBe('"type": "mesage"');
  });

  it('when the member is missing, then the nearest object that exists stands in for it', () => {
    const r = locatePath(text, 'body.dialogs.d.nodes.s.text');
    expect(r?.exact).toBe(false);
    expect(lineOf(text, r!.from)).toBe(text.split('\n').findIndex((l) => l.includes('"s": {')) + 1);
    expect(locatePath(text, 'body.language')).toMatchObject({ from: 0, exact: false });
  });
});

describe('the dialog graph of an agent definition', () => {
  it('when the demo agent is drawn, then every dialog has its start node, labelled edges and no unreachable node', () => {
    const graphs = dialogGraphs(demoAgentDefinition);
    expect(graphs.map((g) => g.name)).toEqual(Object.keys(demoAgentDefinition.dialogs));
    const book = graphs.find((g) => g.name === 'book')!;
    expect(book.nodes.filter((n) => n.start).map((n) => n.id)).toEqual(['size']);
    expect(book.edges).toContainEqual({
      from: 'size',
      to: 'confirmSize',
      label: 'session.BotUserSession.lastMessage.asrMetaData.confidence < 0.6',
      broken: false,
    });
    expect(book.edges).toContainEqual({ from: 'size', to: 'date', label: 'always', broken: false });
    expect(book.entry).toEqual(['intent BookTable']);
    expect(graphs.flatMap((g) => g.nodes).some((n) => n.unreachable)).toBe(false);
  });

  it('when a node cannot be reached or a rule names a missing node, then they are flagged', () => {
    const [g] = dialogGraphs({
      dialogs: {
        d: {
          start: 'a',
          nodes: {
            a: { type: 'message', next: [{ goto: 'nowhere' }] },
            b: { type: 'end' },
            c: { type: 'entity', ivr: { onExceedingRetries: { action: 'jumpToNode', node: 'b' } } },
          },
        },
      },
    });
    expect(g!.nodes.filter((n) => n.unreachable).map((n) => n.id)).toEqual(['b', 'c']);
    expect(g!.edges).toEqual([
      { from: 'a', to: 'nowhere', label: 'always', broken: true },
      { from: 'c', to: 'b', label: 'retries exceeded', broken: false },
    ]);
  });

  it('when the text is not an agent yet, then nothing is drawn and nothing throws', () => {
    for (const v of [null, 42, 'x', [], {}, { dialogs: [] }, { dialogs: { d: 'x' } }])
      expect(() => dialogGraphs(v)).not.toThrow();
    expect(dialogGraphs({ dialogs: { d: { nodes: { a: {} } } } })[0]!.nodes[0]).toMatchObject({
      id: 'a',
      type: '?',
      unreachable: true,
    });
  });
});

describe('suite files', () => {
  it('when a CSV has quoted commas and entities, then every utterance is read', () => {
    const csv = stringify([
      ['utterance', 'intent', 'entities'],
      ['book a table, please', 'Booking', 'size=4; day=monday'],
      ['hello', 'None', ''],
    ]);
    expect(readSuiteFile('s.csv', csv)).toEqual({
      ok: true,
      utterances: [
        {
          utterance: 'book a table, please',
          intent: 'Booking',
          entities: [
            { name: 'size', value: '4' },
            { name: 'day', value: 'monday' },
          ],
        },
        { utterance: 'hello', intent: 'None' },
      ],
    });
  });

  it('when a file is JSON, then both the suite body and a bare array are accepted', () => {
    const utterances = [{ utterance: 'hi', intent: 'Greet' }];
    expect(readSuiteFile('s.json', JSON.stringify({ utterances }))).toEqual({ ok: true, utterances });
    expect(readSuiteFile('s.txt', JSON.stringify(utterances))).toEqual({ ok: true, utterances });
  });

  it('when a file lacks columns, rows or values, then it is refused with the reason', () => {
    expect(readSuiteFile('s.csv', 'text,label\nhi,Greet\n')).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('utterance and intent')],
    });
    expect(readSuiteFile('s.csv', 'utterance,intent\nhi,\n')).toMatchObject({
      ok: false,
      problems: ['Row 2: utterance and intent are both needed'],
    });
    expect(readSuiteFile('s.json', '{"utterances": [{"utterance": 1}]}')).toMatchObject({ ok: false });
    expect(readSuiteFile('s.json', '{oops')).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('Not valid JSON')],
    });
    expect(readSuiteFile('s.csv', 'utterance,intent\n')).toMatchObject({
      ok: false,
      problems: ['The file holds no utterances.'],
    });
  });
});

describe('run result files', () => {
  const columns = [
    'Utterance',
    'Expected Intent',
    'Matched Intent',
    'Parent Intent',
    'Task State',
    'Result Type',
    'Entity Name',
    'Expected Entity Value',
    'Matched Entity Value',
    'Entity Result',
    "Matched Intent's Score",
    "Expected Intent's Score",
  ];
  const row = (u: string, e: string, m: string, t: string) => [
    u,
    e,
    m,
    '',
    '',
    t,
    '',
    '',
    '',
    '',
    '0.90',
    '0.90',
  ];
  const csv = `${stringify([
    ['App Name', 'x'],
    ['Status', 'completed'],
  ])}\n${stringify([
    columns,
    row('a1', 'A', 'A', 'TP'),
    row('a2', 'A', 'B', 'FP+FN'),
    ['a2', 'A', '', '', '', '', 'size', '4', '', 'Not Matched', '', ''],
    row('b1', 'B', 'B', 'TP'),
    row("'=SUM(1)", 'None', '', 'TN'),
  ])}`;

  it('when a result file is read, then each utterance, the scores per intent and the confusion matrix are right', () => {
    const r = readRunResults(csv);
    expect(r.rows.map((x) => [x.utterance, x.expected, x.matched])).toEqual([
      ['a1', 'A', 'A'],
      ['a2', 'A', 'B'],
      ['b1', 'B', 'B'],
      ['=SUM(1)', 'None', 'None'],
    ]);
    expect(r.labels).toEqual(['A', 'B', 'None']);
    expect(r.matrix).toEqual([
      [1, 1, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    const a = r.intents.find((i) => i.intent === 'A')!;
    const b = r.intents.find((i) => i.intent === 'B')!;
    expect([a.precision, a.recall, a.support]).toEqual([1, 0.5, 2]);
    expect(a.f1).toBeCloseTo(2 / 3, 10);
    expect([b.precision, b.recall]).toEqual([0.5, 1]);
  });

  it('when a newer file has the outcome and confidence columns, then each row carries its outcome and its confidence as the score', () => {
    const newer = stringify([
      [...columns, 'Intent Outcome', 'Confidence'],
      [...row('in', 'A', 'A', 'TP'), 'Correct', '0.9123'],
      ['off', 'None', 'B', '', '', 'FP', '', '', '', '', '0.61', '', 'False Accept', '0.6100'],
      ['lost', 'B', 'None', '', '', 'FN', '', '', '', '', '', '0.20', 'False Reject', '0.2000'],
    ]);
    const r = readRunResults(newer);
    expect(r.rows.map((x) => [x.utterance, x.outcome, x.score])).toEqual([
      ['in', 'Correct', '0.91'],
      ['off', 'False Accept', '0.61'],
      ['lost', 'False Reject', '0.20'],
    ]);
    expect(readRunResults(csv).rows.every((x) => x.outcome === '' && x.score === '0.90')).toBe(true);
  });

  it('when the text is not a result file, then nothing is read', () => {
    expect(readRunResults('a,b\n1,2\n')).toEqual({ rows: [], intents: [], labels: [], matrix: [] });
  });
});

describe('the settings diff', () => {
  it('when nested members, arrays and removed members change, then each change is listed with its path and values', () => {
    const before = {
      retries: 3,
      transcription: { enabled: false, engine: 'a' },
      callControlParameters: [],
      welcomeMessage: 'hi',
    };
    let after = setAt(before, ['retries'], 2);
    after = setAt(after, ['transcription', 'enabled'], true);
    after = setAt(after, ['callControlParameters', 0], { name: 'x', value: 'y' });
    after = setAt(after, ['welcomeMessage'], undefined);
    expect(diff(before, after)).toEqual([
      { path: 'retries', before: 3, after: 2 },
      { path: 'transcription.enabled', before: false, after: true },
      { path: 'callControlParameters', before: [], after: [{ name: 'x', value: 'y' }] },
      { path: 'welcomeMessage', before: 'hi', after: undefined },
    ]);
    expect(diff(before, structuredClone(before))).toEqual([]);
  });

  it('when a key is shown as a label, then camel case becomes words', () => {
    expect([humanize('noInput'), humanize('vxmlProperties'), humanize('endOfConversationBehavior')]).toEqual([
      'No input',
      'VXML properties',
      'End of conversation behavior',
    ]);
  });
});
