import { describe, expect, it } from 'vitest';
import { compileAgent, demoAgentDefinition, runTurn, type DialogState, type TurnInput } from '../../src/agent/index.js';
import { call, fakeLlm, fixedNow, settings, voice } from './agent-test-kit.js';

/** Measurement only (printed, never asserted): time is noise on a shared machine. */
describe('turn cost', () => {
  it('when ~500 turns run against the demo agent, then the microseconds per turn are printed', async () => {
    const agent = await compileAgent(demoAgentDefinition);
    const ports = { llm: fakeLlm('We open at noon.'), now: () => fixedNow };
    const script: TurnInput[] = [
      { kind: 'start' },
      voice('I would like to book a table'),
      voice('four', '0.41'),
      voice('yes'),
      voice('tomorrow'),
      voice('no'),
      voice('six'),
      voice('march 3'),
      voice('yes'),
    ];
    const runScript = async (): Promise<number> => {
      let state: DialogState | null = null;
      for (const input of script) state = (await runTurn(agent, input, state, call, settings, ports)).state;
      return script.length;
    };
    for (let i = 0; i < 5; i += 1) await runScript(); // warm-up
    let turns = 0;
    const t0 = performance.now();
    while (turns < 500) turns += await runScript();
    const perTurn = ((performance.now() - t0) * 1000) / turns;

    const phrases = ['I would like to book a table', 'when do you open', 'get me a human', 'banana'];
    const r0 = performance.now();
    for (let i = 0; i < 500; i += 1) await agent.recognizer.recognize(phrases[i % phrases.length] ?? '');
    const perRecognition = ((performance.now() - r0) * 1000) / 500;

    console.log(`[agent] ${turns} turns: ${perTurn.toFixed(0)} µs per turn (recognizer + runner); recognizer alone ${perRecognition.toFixed(0)} µs`);
    expect(turns).toBeGreaterThanOrEqual(500);
  });
});
