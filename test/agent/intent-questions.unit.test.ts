/**
 * The dialog around a recognised intent, with real compiled agents: confirmation (yes, no, no input,
 * an answer that is neither, retries running out), the choice between two intents (by label words,
 * by keys, "neither") and rejection. The per-intent `confirm: "always"` and a margin of 1 make the
 * questions come whatever the recognizer's scores are; the reasons of a rejection come from a
 * recognition the test controls.
 */
import { describe, expect, it } from 'vitest';
import {
  compileAgent,
  type CompiledAgent,
  type RecognitionResult,
  type TurnResult,
} from '../../src/agent/index.js';
import { converse, dtmf, last, settings, voice } from './agent-test-kit.js';

const end = (text: string) => ({ start: 'say', nodes: { say: { type: 'end', text } } });

function pharmacy(
  nlu: Record<string, unknown>,
  intentExtra: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    language: 'en',
    welcomeDialog: 'welcome',
    fallbackDialog: 'fallback',
    nlu,
    intents: [
      {
        name: 'RefillPrescription',
        dialog: 'refill',
        utterances: ['refill my prescription', 'i need a refill', 'renew my medication'],
        ...intentExtra.RefillPrescription,
      },
      {
        name: 'StoreHours',
        dialog: 'hours',
        label: 'hear the store hours',
        utterances: ['what are your store hours', 'when are you open', 'opening hours'],
        ...intentExtra.StoreHours,
      },
    ],
    dialogs: {
      welcome: { start: 'hi', nodes: { hi: { type: 'message', text: 'How can I help?' } } },
      fallback: {
        start: 'sorry',
        nodes: {
          sorry: { type: 'message', text: 'Sorry, I can refill prescriptions or tell you our hours.' },
        },
      },
      refill: end('Refilling your prescription.'),
      hours: end('We open at nine.'),
    },
  };
}

const start = { kind: 'start' } as const;
const confirming = () => compileAgent(pharmacy({}, { RefillPrescription: { confirm: 'always' } }));

describe('confirming an intent', () => {
  it("when the caller says yes, then the intent's dialog runs and the decision says confirmed", async () => {
    const agent = await confirming();
    const [, asked, answered] = await converse(agent, [
      start,
      voice('refill my prescription'),
      voice('yes please'),
    ]);
    expect(asked!.promptText).toBe('Did you want to refill a prescription?');
    expect(asked!.await).toEqual({ kind: 'entity', entityType: 'yesno' });
    expect(asked!.decision).toEqual({ outcome: 'confirm', intent: 'RefillPrescription', reason: 'always' });
    expect(asked!.state.question).toEqual({ ask: 'confirm', intents: ['RefillPrescription'] });
    expect(answered!.promptText).toBe('Refilling your prescription.');
    expect(answered!.decision).toEqual({
      outcome: 'accept',
      intent: 'RefillPrescription',
      reason: 'confirmed',
    });
    expect(answered!.state.question).toBeUndefined();
    expect(answered!.trace).toContain('#decision RefillPrescription confirmed');
  });

  it('when the caller keys 1 or 2, then that is yes or no', async () => {
    const agent = await confirming();
    expect(last(await converse(agent, [start, voice('i need a refill'), dtmf('1')])).promptText).toBe(
      'Refilling your prescription.',
    );
    expect(last(await converse(agent, [start, voice('i need a refill'), dtmf('2')])).decision).toMatchObject({
      outcome: 'reject',
      reason: 'denied',
    });
  });

  it('when the caller says no, then the denial prompt is said, an intent is awaited again and the next one is heard', async () => {
    const agent = await confirming();
    const [, , denied, next] = await converse(agent, [
      start,
      voice('refill my prescription'),
      voice('no'),
      voice('when are you open'),
    ]);
    expect(denied!.promptText).toBe('Sorry about that. What would you like to do?');
    expect(denied!.await).toEqual({ kind: 'intent' });
    expect(denied!.decision).toEqual({
      outcome: 'reject',
      reason: 'denied',
      intents: ['RefillPrescription'],
    });
    expect(denied!.state.retries).toBe(1);
    expect(next!.promptText).toBe('We open at nine.');
  });

  it('when the caller gives no input or an answer that is neither, then the question is asked again, then the retries run out', async () => {
    const agent = await confirming();
    const results = await converse(
      agent,
      [start, voice('refill my prescription'), { kind: 'noinput' }, voice('purple'), voice('banana')],
      {
        settings: { ...settings, retries: 2, noInputPrompt: 'I did not hear you.' },
      },
    );
    const [, , silent, neither, exhausted] = results;
    expect(silent!.promptText).toBe('I did not hear you. Did you want to refill a prescription?');
    expect(silent!.failed).toEqual({ kind: 'noinput', reason: 'event' });
    expect(silent!.state.question).toEqual({ ask: 'confirm', intents: ['RefillPrescription'] });
    expect(neither!.promptText).toBe("Sorry, I didn't get that. Did you want to refill a prescription?");
    expect(neither!.failed).toEqual({ kind: 'nomatch', reason: 'no_match' });
    // retries 2: the third failed attempt applies the app's exceeding behaviour (no handler: the call ends)
    expect(exhausted!.action).toBe('end');
    expect(exhausted!.state.question).toBeUndefined();
  });

  it("when the answer is under the IVR's confidence threshold, then it is a no match and the question is asked again", async () => {
    const agent = await confirming();
    const r = last(
      await converse(agent, [
        start,
        voice('refill my prescription'),
        voice('yes', '0.300000', { belowThreshold: true }),
      ]),
    );
    expect(r.failed).toEqual({ kind: 'nomatch', reason: 'below_threshold' });
    expect(r.promptText).toBe("Sorry, I didn't get that. Did you want to refill a prescription?");
    expect(r.decision).toBeUndefined();
  });

  it('when the browser says its retries at the question ran out, then the exceeding behaviour applies (a handler dialog here)', async () => {
    const agent = await compileAgent({
      ...pharmacy({}, { RefillPrescription: { confirm: 'always' } }),
      dialogs: { ...(pharmacy({}).dialogs as object), bye: end('Goodbye from the handler.') },
    });
    const r = last(
      await converse(agent, [start, voice('refill my prescription'), { kind: 'maxretries' }], {
        settings: { ...settings, callTerminationHandler: 'bye' },
      }),
    );
    expect(r.promptText).toBe('Goodbye from the handler.');
    expect(r.state.question).toBeUndefined();
  });

  it('when the confidence is between the threshold and confirmAbove, then the agent asks; above it, it does not', async () => {
    const agent = await compileAgent(pharmacy({ threshold: 0.3, confirmAbove: 1, margin: 0 }));
    // a phrase that is no training phrase and mixes both intents' words: some confidence, under 1
    const r = last(await converse(agent, [start, voice('prescription hours')]));
    expect(r.recognition!.score).toBeGreaterThanOrEqual(0.3);
    expect(r.recognition!.score).toBeLessThan(1);
    expect(r.decision).toMatchObject({ outcome: 'confirm', reason: 'unsure' });
    const relaxed = await compileAgent(pharmacy({ threshold: 0.3, confirmAbove: 0.3, margin: 0 }));
    expect(last(await converse(relaxed, [start, voice('prescription hours')])).decision?.outcome).toBe(
      'accept',
    );
  });

  it('when the agent sets its own prompts, then the questions use them with the labels', async () => {
    const agent = await compileAgent(
      pharmacy(
        { prompts: { confirm: 'So you want to {label}, right?', denied: 'OK, what then?' } },
        { RefillPrescription: { confirm: 'always', label: 'get a refill' } },
      ),
    );
    const [, asked, denied] = await converse(agent, [start, voice('refill my prescription'), voice('nope')]);
    expect(asked!.promptText).toBe('So you want to get a refill, right?');
    expect(denied!.promptText).toBe('OK, what then?');
  });

  it("when the browser's grammar tagged the intent, then it starts its dialog without a question", async () => {
    const agent = await confirming();
    const r = last(
      await converse(agent, [
        start,
        voice('refill my prescription', '0.9', { grammarIntent: 'RefillPrescription' }),
      ]),
    );
    expect(r.promptText).toBe('Refilling your prescription.');
    expect(r.decision).toEqual({ outcome: 'accept', intent: 'RefillPrescription', reason: 'grammar' });
  });
});

describe('choosing between two intents', () => {
  // margin 1: every recognition with a second intent of any confidence is asked about
  const choosing = () => compileAgent(pharmacy({ threshold: 0.3, margin: 1 }));

  async function ask(agent: CompiledAgent): Promise<{ asked: TurnResult; first: string; second: string }> {
    const asked = last(await converse(agent, [start, voice('refill hours')]));
    expect(asked.decision?.outcome).toBe('choose');
    const [first, second] = asked.decision!.outcome === 'choose' ? asked.decision!.intents : ['', ''];
    return { asked, first, second };
  }

  it('when two intents are within the margin, then the caller is asked which, with both labels, best first', async () => {
    const { asked, first } = await ask(await choosing());
    const labels = {
      RefillPrescription: 'refill a prescription',
      StoreHours: 'hear the store hours',
    } as Record<string, string>;
    const [a, b] =
      first === 'StoreHours'
        ? [labels.StoreHours, labels.RefillPrescription]
        : [labels.RefillPrescription, labels.StoreHours];
    expect(asked.promptText).toBe(`Do you want to ${a}, or ${b}?`);
    expect(asked.await).toMatchObject({ kind: 'entity', entityType: 'list' });
    const values = asked.await?.kind === 'entity' ? (asked.await.values ?? []) : [];
    expect(values).toEqual(
      expect.arrayContaining([
        'refill a prescription',
        'hear the store hours',
        'refill',
        'store',
        'hours',
        '1',
        '2',
      ]),
    );
    expect(asked.trace).toContain(
      `#decision ambiguous between ${asked.state.question!.intents.join(' and ')}`,
    );
  });

  it("when the caller says a word of a label, then that intent's dialog runs (chosen)", async () => {
    const agent = await choosing();
    const r = last(await converse(agent, [start, voice('refill hours'), voice('the store hours please')]));
    expect(r.promptText).toBe('We open at nine.');
    expect(r.decision).toEqual({ outcome: 'accept', intent: 'StoreHours', reason: 'chosen' });
  });

  it('when the caller keys 2, then the second intent named is taken', async () => {
    const agent = await choosing();
    const { second } = await ask(agent);
    const r = last(await converse(agent, [start, voice('refill hours'), dtmf('2')]));
    expect(r.decision).toEqual({ outcome: 'accept', intent: second, reason: 'chosen' });
  });

  it('when the caller says neither, then it is a denial of both', async () => {
    const agent = await choosing();
    const r = last(await converse(agent, [start, voice('refill hours'), voice('neither')]));
    expect(r.decision).toMatchObject({ outcome: 'reject', reason: 'denied' });
    expect(r.decision?.outcome === 'reject' && [...(r.decision.intents ?? [])].sort()).toEqual([
      'RefillPrescription',
      'StoreHours',
    ]);
    expect(r.await).toEqual({ kind: 'intent' });
  });
});

describe('rejecting an utterance', () => {
  /** The agent with a recognizer that answers `r` (the recognizer's own reasons, under the test's control). */
  const answering = (agent: CompiledAgent, r: RecognitionResult): CompiledAgent =>
    ({ ...agent, recognizer: { recognize: async () => r } }) as unknown as CompiledAgent;

  it('when the recognizer says out of scope or below threshold, then the fallback runs and the decision says why', async () => {
    const agent = await compileAgent(pharmacy({}));
    for (const rejection of ['out_of_scope', 'below_threshold'] as const) {
      const r = last(
        await converse(
          answering(agent, {
            intent: 'None',
            score: 0.2,
            scores: [{ intent: 'StoreHours', score: 0.2 }],
            source: 'nlu',
            rejection,
          }),
          [start, voice('cancel my credit card')],
        ),
      );
      expect(r.promptText).toBe('Sorry, I can refill prescriptions or tell you our hours.');
      expect(r.decision).toEqual({ outcome: 'reject', reason: rejection });
      expect(r.trace).toContain(`#decision ${rejection.replace(/_/g, ' ')}`);
      expect(r.fallback).toEqual({ reason: rejection });
    }
  });

  it('when the intent accepted has no dialog of its own, then the fallback runs with the reason no_dialog', async () => {
    const agent = await compileAgent(pharmacy({}));
    const r = last(
      await converse(
        answering(agent, {
          intent: 'Unmapped',
          score: 0.99,
          scores: [{ intent: 'Unmapped', score: 0.99 }],
          source: 'nlu',
        }),
        [start, voice('something else')],
      ),
    );
    expect(r.decision).toMatchObject({ outcome: 'accept', intent: 'Unmapped' });
    expect(r.promptText).toBe('Sorry, I can refill prescriptions or tell you our hours.');
    expect(r.fallback).toEqual({ reason: 'no_dialog' });
  });

  it('when an intent is accepted into its own dialog, then the turn has no fallback reason', async () => {
    const agent = await compileAgent(pharmacy({}));
    const r = last(
      await converse(
        answering(agent, {
          intent: 'StoreHours',
          score: 0.99,
          scores: [{ intent: 'StoreHours', score: 0.99 }],
          source: 'nlu',
        }),
        [start, voice('when are you open')],
      ),
    );
    expect(r.decision).toMatchObject({ outcome: 'accept', intent: 'StoreHours' });
    expect(r.fallback).toBeUndefined();
  });

  it('when nothing in the utterance is known to the agent, then it falls back below the threshold', async () => {
    const agent = await compileAgent(pharmacy({}));
    const r = last(await converse(agent, [start, voice('xyzzy')]));
    expect(r.recognition?.intent).toBe('None');
    expect(r.decision).toMatchObject({ outcome: 'reject' });
    expect(r.promptText).toContain('Sorry, I can refill');
  });
});
