/**
 * The schema check through the operator API (the Call page's validity mark): VoiceXML against
 * vxml.xsd, a standalone grammar against grammar.xsd, and the refusals.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/index.js';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';

const reference = readFileSync(new URL('../../vxml-templates/ask.vxml', import.meta.url), 'utf8');

describe('document validity check', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`validity-${Date.now()}:`) });
  });
  afterAll(async () => {
    await gw.close();
  });
  const check = (body: unknown) => gw.admin('POST', '/api/admin/vxml/validate', body);

  it('when a reference document is checked, then it is valid with no errors', async () => {
    expect((await check({ xml: reference })).body).toEqual({ valid: true, errors: [] });
  });

  it('when a document breaks the schema or is not XML, then it is invalid and libxml2 says where', async () => {
    const broken = reference.replace('<form', '<form><bogus/></form><form');
    const r = await check({ xml: broken });
    expect(r.status).toBe(200);
    expect(r.body.valid).toBe(false);
    expect(r.body.errors.join('\n')).toContain('bogus');
    const notXml = await check({ xml: '<vxml version="2.1"><form>' });
    expect(notXml.body.valid).toBe(false);
    expect(notXml.body.errors.length).toBeGreaterThan(0);
  });

  it('when a standalone grammar is checked with schema srgs, then grammar.xsd judges it', async () => {
    const grammar =
      '<?xml version="1.0"?><grammar xmlns="http://www.w3.org/2001/06/grammar" version="1.0" root="r" mode="voice" xml:lang="en-US"><rule id="r"><one-of><item>yes</item><item>no</item></one-of></rule></grammar>';
    expect((await check({ xml: grammar, schema: 'srgs' })).body).toEqual({ valid: true, errors: [] });
    expect((await check({ xml: grammar })).body.valid).toBe(false);
  });

  it('when no document or an unknown schema is given, then the answer is 400', async () => {
    expect((await check({ xml: '' })).status).toBe(400);
    expect((await check({ xml: reference, schema: 'dtd' })).status).toBe(400);
    expect((await check({})).status).toBe(400);
  });
});
