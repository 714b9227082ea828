/**
 * After a full scenario through the whole service (see leak-scenario.ts), no secret it created
 * appears in any log line or in any answer body or header it received: provider keys, client
 * secrets, API keys, PINs, sandbox secrets, JWTs, the channel secret, encrypted column values, the
 * admin token and the master key. The only exceptions are the create answers in which the contract
 * shows a secret once (API app, API key, IVR channel, sandbox) and the rotations of the channel and
 * sandbox secrets, excluded by request (a later PUT of either shows none); and two
 * reflections the contract requires, allowed only in the answer to the request that sent the value:
 * the webhook token in the submit URLs of the documents it gets, and the table insert answer,
 * which returns the writer's own record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_TEXT, SHOWN_ONCE, runLeakScenario, type Scenario, type Secret } from './leak-scenario.js';

const MIN_WINDOW = 16;

/** Where a secret shows in a text: whole, or (long ones) any 16-character piece of it; JWTs by their signature too. */
function shows(text: string, s: Secret): boolean {
  if (s.kind === 'digits') return new RegExp(`(?<!\\d)${s.value}(?!\\d)`).test(text);
  if (text.includes(s.value)) return true;
  if (s.kind === 'jwt') return text.includes(s.value.split('.')[2]!);
  if (s.value.length < MIN_WINDOW + 8) return false;
  for (let i = 0; i + MIN_WINDOW <= s.value.length; i++)
    if (text.includes(s.value.slice(i, i + MIN_WINDOW))) return true;
  return false;
}

describe('secrets through a whole scenario', () => {
  let sc: Scenario;

  beforeAll(async () => {
    const started = Date.now();
    sc = await runLeakScenario();
    console.log(
      `[security] leak scenario: ${sc.rec.exchanges.length} exchanges, ${sc.gw.log.lines.length} log lines, ${sc.secrets.length} secrets, ${Date.now() - started} ms`,
    );
  }, 60_000);
  afterAll(() => sc.close());

  it('when the scenario has run, then it really used every secret (keys reached the model, calls heard the answer, the sandbox PIN connected)', () => {
    const auth = sc.modelRequests.map((r) => JSON.stringify(r.headers));
    for (const name of [
      'rotated HostedModelA key',
      'HostedModelB key',
      'HostedModelC key',
      'API header model key',
      'API existing-provider header key',
      'API key the provider refuses',
    ]) {
      const s = sc.secrets.find((x) => x.name === name)!;
      expect(
        auth.some((h) => h.includes(s.value)),
        `${name} reached the model stub`,
      ).toBe(true);
    }
    expect(sc.heard.join('\n')).toContain(MODEL_TEXT);
    expect(sc.sandboxCall.spoken.join(' ')).toContain(MODEL_TEXT);
    expect(sc.sandboxCall.fetches.some((f) => f.kind === 'subdialog')).toBe(true);
    expect(
      sc.rec.exchanges
        .filter((e) => e.label.startsWith(SHOWN_ONCE))
        .map((e) => e.label)
        .sort(),
    ).toEqual([
      `${SHOWN_ONCE}create API app (all scopes)`,
      `${SHOWN_ONCE}create API app (assist)`,
      `${SHOWN_ONCE}create API key (manage)`,
      `${SHOWN_ONCE}create API key (view)`,
      `${SHOWN_ONCE}enable IVR channel`,
      `${SHOWN_ONCE}enable sandbox`,
      `${SHOWN_ONCE}rotate IVR channel secret`,
      `${SHOWN_ONCE}rotate sandbox PIN and secret`,
    ]);
  });

  it('when every log line is searched, then no secret appears in it', () => {
    const leaks: string[] = [];
    for (const line of sc.gw.log.lines)
      for (const s of sc.secrets) if (shows(line, s)) leaks.push(`${s.name} in log: ${line.slice(0, 300)}`);
    expect(leaks).toEqual([]);
  });

  it('when every answer body and header is searched, then no secret appears outside the shown-once create answers and the reflections the contract requires', () => {
    const leaks: string[] = [];
    const reflected = new Map<string, number>();
    for (const e of sc.rec.exchanges) {
      if (e.label.startsWith(SHOWN_ONCE)) continue;
      const text = `${JSON.stringify(e.answer.headers)}\n${e.answer.text}`;
      for (const s of sc.secrets) {
        if (!shows(text, s)) continue;
        if (s.reflectedBy?.(e)) {
          reflected.set(s.name, (reflected.get(s.name) ?? 0) + 1);
          continue;
        }
        leaks.push(
          `${s.name} in the answer to "${e.label}" (${e.request.method} ${e.request.path.slice(0, 120)} -> ${e.answer.status}): ${e.answer.text.slice(0, 200)}`,
        );
      }
    }
    console.log(
      `[security] reflections allowed by the contract: ${[...reflected].map(([k, n]) => `${k} x${n}`).join(', ')}`,
    );
    expect(leaks).toEqual([]);
    // the two reflections did happen (so the allowance is needed, and documented, not dead code)
    expect([...reflected.keys()].sort()).toEqual(['encrypted column value', 'webhook token']);
  });

  it('when the shown-once create answers are read, then each shows exactly the secret it creates (the exclusion above is not hiding anything else)', () => {
    for (const e of sc.rec.exchanges.filter((x) => x.label.startsWith(SHOWN_ONCE))) {
      const shown = sc.secrets.filter((s) => shows(e.answer.text, s)).map((s) => s.name);
      const expected = e.label.includes('API app')
        ? [`clientSecret of ${e.label.slice(SHOWN_ONCE.length)}`]
        : e.label.includes('API key (manage)')
          ? ['API key (manage)']
          : e.label.includes('API key (view)')
            ? ['API key (view)']
            : e.label.includes('rotate IVR channel')
              ? ['rotated IVR channel clientSecret']
              : e.label.includes('rotate sandbox')
                ? ['rotated sandbox PIN', 'rotated sandbox secret']
                : e.label.includes('channel')
                  ? ['IVR channel clientSecret']
                  : ['sandbox PIN', 'sandbox secret'];
      expect(shown.sort(), e.label).toEqual(expected.sort());
    }
  });
});
