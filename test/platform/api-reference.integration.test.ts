import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { MemoryStore } from '../../src/store/index.js';

interface Operation {
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
type Spec = { paths: Record<string, Record<string, Operation>> };

const meaningful = (schema: Record<string, unknown> | undefined): boolean =>
  schema !== undefined && Object.keys(schema).some((k) => k !== '$schema' && k !== 'description');

describe('API reference', () => {
  let gw: RunningGateway;
  let spec: Spec;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`api-ref-${Date.now()}:`) });
    spec = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Spec;
  });
  afterAll(async () => {
    await gw.close();
  });

  const operations = (): Array<[string, Operation]> =>
    Object.entries(spec.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
    );

  it('when the OpenAPI document is read, then every PUT, POST and PATCH has a non-empty request body schema', () => {
    // actions that take no body (rotating a secret, a new invitation link, the console asking for its credentials) are the only writes without one
    const writes = operations().filter(
      ([name]) =>
        /^(PUT|POST|PATCH) /.test(name) &&
        !/\/rotate-secret$|^POST \/api\/admin\/accounts\/\{accountId\}\/invitation$|^POST \/api\/console\/(apps\/\{streamId\}\/token|api-key)$/.test(
          name,
        ),
    );
    expect(writes.length).toBeGreaterThan(10);
    const empty = writes
      .filter(
        ([, op]) =>
          !op.requestBody || Object.values(op.requestBody.content).some((c) => !meaningful(c.schema)),
      )
      .map(([name]) => name);
    expect(empty).toEqual([]);
  });

  it('when the agent body is read, then every node type is one member of the node union', () => {
    const agent = spec.paths['/api/admin/apps/{streamId}/agent']!.put!.requestBody!.content[
      'application/json'
    ]!.schema as any;
    expect(agent.required).toEqual(
      expect.arrayContaining(['language', 'welcomeDialog', 'fallbackDialog', 'intents', 'dialogs']),
    );
    const node = agent.properties.dialogs.additionalProperties.properties.nodes.additionalProperties;
    const types = (node.oneOf as Array<{ properties: { type: { const: string } } }>)
      .map((m) => m.properties.type.const)
      .sort();
    expect(types).toEqual(['end', 'entity', 'llm', 'message', 'table', 'transfer']);
  });

  it("when the agent body is read, then the nlu block and the intents' recognition members are there, described", () => {
    const agent = spec.paths['/api/admin/apps/{streamId}/agent']!.put!.requestBody!.content[
      'application/json'
    ]!.schema as any;
    const nlu = agent.properties.nlu;
    expect(Object.keys(nlu.properties).sort()).toEqual([
      'confirmAbove',
      'margin',
      'outOfScope',
      'prompts',
      'threshold',
    ]);
    expect(nlu.additionalProperties).toBe(false);
    expect(nlu.properties.threshold.description).toMatch(/default 0\.\d+/);
    expect(Object.keys(nlu.properties.prompts.properties).sort()).toEqual(['choose', 'confirm', 'denied']);
    const intent = agent.properties.intents.items;
    expect(intent.properties.confirm.enum).toEqual(['auto', 'always', 'never']);
    expect(Object.keys(intent.properties)).toEqual(
      expect.arrayContaining(['negatives', 'label', 'confirmAbove']),
    );
    expect(agent.properties.intentThreshold.description).toMatch(/Deprecated/);
  });

  it('when the settings body is read, then each setting is described with its default', () => {
    const settings = spec.paths['/api/admin/apps/{streamId}/ivr-settings']!.put!.requestBody!.content[
      'application/json'
    ]!.schema as any;
    expect(settings.additionalProperties).toBe(false);
    expect(settings.properties.dialect.enum).toContain('w3c');
    expect(settings.properties.retries.default).toBe(3);
  });

  it('when an operation answers with a body, then its schema is in the document', () => {
    const bare = operations().flatMap(([name, op]) =>
      Object.entries(op.responses)
        .filter(([status, r]) => Number(status) < 300 && status !== '204' && !r.content)
        .map(([status]) => `${name} ${status}`),
    );
    expect(bare).toEqual([]);
  });

  it('when an operation can fail, then each error answer has the contract error body', () => {
    const bare = operations().flatMap(([name, op]) =>
      Object.entries(op.responses)
        .filter(([status, r]) => Number(status) >= 400 && !r.content)
        .map(([status]) => `${name} ${status}`),
    );
    expect(bare).toEqual([]);
  });

  it('when /docs is opened, then the reader page loads from this origin with a CSP and no inline script', async () => {
    const redirect = await fetch(`${gw.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const page = await fetch(`${gw.url}/docs/`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/docs\//);
      expect(body!.trim()).toBe('');
    }
    for (const src of [...html.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((m) => m[1]!)) {
      const asset = await fetch(`${gw.url}${src}`);
      expect(asset.status, src).toBe(200);
      await asset.arrayBuffer();
    }
    expect(await (await fetch(`${gw.url}/docs/start.js`)).text()).toContain("url: '/openapi.json'");
  });

  it('when a file outside the reader is asked for under /docs/assets, then it is not served', async () => {
    expect((await fetch(`${gw.url}/docs/assets/package.json`)).status).toBe(404);
    expect((await fetch(`${gw.url}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
  });
});
