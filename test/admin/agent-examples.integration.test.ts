import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/test-gateway.js';
import { runShellBlock, shellBlocks } from '../helpers/shell-blocks.js';
import { MemoryStore } from '../../src/store/index.js';

const root = join(import.meta.dirname, '..', '..');
const exampleFiles = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json'));
const docFiles = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));

/** The JSON code blocks of a Markdown file that hold an agent, or a dialog (wrapped into an agent). */
function agentsIn(file: string): Array<{ name: string; agent: unknown }> {
  const text = readFileSync(join(root, 'docs', file), 'utf8');
  const out: Array<{ name: string; agent: unknown }> = [];
  for (const [i, m] of [...text.matchAll(/```json\n([\s\S]*?)```/g)].entries()) {
    const value = JSON.parse(m[1]!) as Record<string, unknown>;
    const name = `docs/${file} block ${i + 1}`;
    if ('dialogs' in value) out.push({ name, agent: value });
    else if ('start' in value && 'nodes' in value) {
      out.push({
        name,
        agent: {
          language: 'en',
          welcomeDialog: 'example',
          fallbackDialog: 'example',
          intents: [],
          dialogs: { example: value },
        },
      });
    }
  }
  return out;
}

/**
 * The documented model nodes name an example connection id; the page says to put the id of a
 * connection made with its commands in its place, which is what this does.
 */
function onConnection(agent: unknown, connectionId: string): unknown {
  const copy = structuredClone(agent) as {
    dialogs: Record<string, { nodes: Record<string, { type: string; connectionId?: string }> }>;
  };
  for (const dialog of Object.values(copy.dialogs))
    for (const node of Object.values(dialog.nodes)) if (node.type === 'llm') node.connectionId = connectionId;
  return copy;
}

describe('agents in examples/ and docs/', () => {
  let gw: RunningGateway;
  let connectionId: string;
  beforeAll(async () => {
    gw = await startGateway({ store: new MemoryStore(`agent-examples-${Date.now()}:`) });
    // the connection the page says how to make, made by running the page's own commands
    const blocks = shellBlocks('docs/agent.md').filter((b) => b.text.includes('/api/public/connections'));
    expect(blocks).toHaveLength(1);
    const run = await runShellBlock(blocks[0]!, { BASE: gw.url, ADMIN: gw.config.adminToken });
    expect(run.code, run.stderr).toBe(0);
    connectionId = (JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { connectionId: string })
      .connectionId;
  });
  afterAll(async () => {
    await gw.close();
  });

  const freshApp = async (): Promise<string> => {
    const app = await gw.admin('POST', '/api/admin/apps', { name: 'example', language: 'en' });
    expect(app.status).toBe(201);
    return app.body.streamId as string;
  };

  it('when the folders are read, then there are examples and documented agents to check', () => {
    expect(exampleFiles.length).toBeGreaterThanOrEqual(2);
    expect(docFiles.flatMap(agentsIn).length).toBeGreaterThanOrEqual(5);
  });

  it.each(exampleFiles)(
    'when examples/%s is set on a fresh app, then it is accepted as it is',
    async (file) => {
      const agent = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8')) as unknown;
      const put = await gw.admin('PUT', `/api/admin/apps/${await freshApp()}/agent`, agent);
      expect(put.status, JSON.stringify(put.body)).toBe(202);
    },
  );

  it('when every agent and dialog shown in docs/ is set on a fresh app, then each is accepted', async () => {
    const refused: string[] = [];
    for (const { name, agent } of docFiles.flatMap(agentsIn)) {
      const put = await gw.admin(
        'PUT',
        `/api/admin/apps/${await freshApp()}/agent`,
        onConnection(agent, connectionId),
      );
      if (put.status !== 202) refused.push(`${name}: ${JSON.stringify(put.body)}`);
    }
    expect(refused).toEqual([]);
  });

  it('when the documented llm agent names the connection its page made, then it is accepted, and with the placeholder id it is refused', async () => {
    expect(connectionId).toMatch(/^cn-/);
    const conn = await gw.admin('GET', '/api/admin/api-keys');
    expect(conn.body.apiKeys.some((k: { name: string }) => k.name === 'models')).toBe(true);
    const llm = docFiles
      .flatMap(agentsIn)
      .filter(({ agent }) => JSON.stringify(agent).includes('"type":"llm"'));
    expect(llm.length).toBeGreaterThanOrEqual(1);
    for (const { name, agent } of llm) {
      const asWritten = await gw.admin('PUT', `/api/admin/apps/${await freshApp()}/agent`, agent);
      expect(asWritten.status, name).toBe(400);
      expect(JSON.stringify(asWritten.body)).toContain('connectionId');
      expect(
        (
          await gw.admin(
            'PUT',
            `/api/admin/apps/${await freshApp()}/agent`,
            onConnection(agent, connectionId),
          )
        ).status,
        name,
      ).toBe(202);
    }
  });

  it('when a documented agent is broken on purpose, then the check notices', async () => {
    const [first] = docFiles.flatMap(agentsIn);
    const broken = structuredClone(first!.agent) as { welcomeDialog: string };
    broken.welcomeDialog = 'no-such-dialog';
    expect((await gw.admin('PUT', `/api/admin/apps/${await freshApp()}/agent`, broken)).status).toBe(400);
  });
});
