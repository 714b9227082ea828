/**
 * The gateway's own entity grammars (the date grammar alone is hundreds of lines) are served at
 * /ivr/grammars/entity.grxml and named there by the ask documents instead of written inline.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../helpers/test-stores.js';
import { setupIvrApp, startGateway, type IvrApp, type RunningGateway } from '../helpers/test-gateway.js';
import { IvrCall, spokenOf } from '../helpers/ivr-call.js';
import { validateSrgs } from '../helpers/vxml-schema.js';
import type { Store } from '../../src/store/index.js';

/** The src attributes of the document's grammars served by the gateway. */
const servedGrammars = (xml: string): URL[] =>
  [...xml.matchAll(/<grammar\b[^>]*\bsrc="([^"]+)"/g)]
    .map((m) => m[1]!.replace(/&amp;/g, '&'))
    .filter((s) => s.startsWith('http'))
    .map((s) => new URL(s));

describeEachStore('entity grammars served as resources', 'api', (factory) => {
  let store: Store;
  let gw: RunningGateway;
  let app: IvrApp;

  beforeAll(async () => {
    store = await factory.make();
    gw = await startGateway({ store });
    app = await setupIvrApp(gw);
  });
  afterAll(async () => {
    await gw.docs.validateAll();
    await gw.close();
    await store.close();
  });

  it('when the agent asks for a day, then the document names the date grammar by URL, and that URL answers a valid SRGS grammar a browser may keep', async () => {
    const call = new IvrCall(gw, app.webhookUrl);
    await call.start();
    await call.say('i want to book a table');
    const date = await call.say('4', { inputmode: 'dtmf', confidence: '1.0' });
    expect(spokenOf(date)).toContain('For which day?');
    expect(date).not.toContain('<rule');
    const urls = servedGrammars(date);
    const voice = urls.find(
      (u) => u.searchParams.get('entity') === 'date' && u.searchParams.get('mode') === 'voice',
    );
    expect(voice?.pathname).toBe('/ivr/grammars/entity.grxml');
    expect(voice?.origin).toBe(new URL(gw.url).origin);

    const res = await fetch(voice!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/srgs+xml');
    expect(res.headers.get('cache-control')).toContain('max-age');
    const grammar = await res.text();
    expect((await validateSrgs(grammar)).errors).toEqual([]);
    expect(grammar).toContain('march');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
  });

  it('when every entity and mode is asked for, then each answers a grammar that validates', async () => {
    for (const entity of ['number', 'date', 'digits', 'boolean']) {
      for (const mode of ['voice', 'dtmf']) {
        const res = await fetch(
          `${gw.url}/ivr/grammars/entity.grxml?entity=${entity}&mode=${mode}&lang=en-GB${entity === 'digits' ? '&minLength=4&maxLength=6' : ''}`,
        );
        expect(res.status, `${entity} ${mode}`).toBe(200);
        expect((await validateSrgs(await res.text())).errors, `${entity} ${mode}`).toEqual([]);
      }
    }
  });

  it('when the query names an unknown entity, a bad language or an unknown parameter, then 400 names it', async () => {
    for (const [query, path] of [
      ['entity=colour&mode=voice', 'query.entity'],
      ['entity=date&mode=voice&lang=<x>', 'query.lang'],
      ['entity=date&mode=voice&extra=1', 'query'],
    ] as const) {
      const res = await fetch(`${gw.url}/ivr/grammars/entity.grxml?${query}`);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { errors: Array<{ path?: string }> };
      expect(body.errors.map((e) => e.path).join(' '), query).toContain(path);
    }
  });
});
