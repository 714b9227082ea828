/**
 * The console's API types are generated from the service's route schemas (console/api-types.ts):
 * a field renamed in a response schema breaks the console's type check, naming the field, and the
 * committed types are what the routes give. The console is type-checked in-process (the TypeScript
 * compiler, the console's tsconfig) with the generated file read from memory instead of the disk.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypes, serviceRoutes } from '../../console/api-types.js';
import { turnTraceSchema } from '../../src/tracing/index.js';
import type { RouteDef } from '../../src/platform/index.js';

const CONSOLE_TSCONFIG = fileURLToPath(new URL('../../console/tsconfig.json', import.meta.url));
/** The inspector's turn panel: it reads the trace's fields, `fallback` among them. */
const TURN_PANEL = fileURLToPath(new URL('../../console/src/pages/calls/turn-panel.tsx', import.meta.url));
const TIMELINE = '/api/admin/apps/:streamId/calls/:callId';

/** The console's type errors (of the turn panel and what it imports) with `generated` as openapi.d.ts. */
function consoleErrors(generated: string, old?: ts.Program): { errors: string[]; program: ts.Program } {
  const config = ts.getParsedCommandLineOfConfigFile(
    CONSOLE_TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, fresh) =>
    name === API_TYPES_FILE
      ? ts.createSourceFile(name, generated, language)
      : getSourceFile(name, language, onError, fresh);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === API_TYPES_FILE ? generated : readFile(name));
  const program = ts.createProgram({
    rootNames: [TURN_PANEL],
    options: config.options,
    host,
    ...(old ? { oldProgram: old } : {}),
  });
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { errors, program };
}

describe('console API types generated from the route schemas', () => {
  let routes: RouteDef[];
  let close: () => Promise<void>;
  let fromRoutes: string;
  beforeAll(async () => {
    ({ routes, close } = serviceRoutes());
    fromRoutes = await apiTypes(routes);
  });
  afterAll(async () => {
    await close();
  });

  it('when the committed types are read, then they are what the route definitions give', () => {
    expect(readFileSync(API_TYPES_FILE, 'utf8')).toBe(fromRoutes);
  });

  it('when a trace field is renamed in the zod schema, then the console fails its type check naming the field; unrenamed, it passes', async () => {
    const timeline = routes.find((r) => r.path === TIMELINE && r.method === 'get')!;
    const answer = timeline.responses[200]!.schema as z.ZodObject<{ call: z.ZodType }>;
    const renamedTrace = turnTraceSchema
      .omit({ fallback: true })
      .extend({ fallbackWhy: turnTraceSchema.shape.fallback });
    const renamed = routes.map((r) =>
      r === timeline
        ? {
            ...r,
            responses: {
              ...r.responses,
              200: {
                ...r.responses[200]!,
                schema: z.object({ call: answer.shape.call, turns: z.array(renamedTrace) }),
              },
            },
          }
        : r,
    );
    const broken = await apiTypes(renamed);
    expect(broken).toContain('fallbackWhy?:');

    const failing = consoleErrors(broken);
    expect(failing.errors.length).toBeGreaterThan(0);
    expect(
      failing.errors.every((e) => e.includes("'fallback'")),
      failing.errors.join('\n'),
    ).toBe(true);

    expect(consoleErrors(fromRoutes, failing.program).errors).toEqual([]);
  }, 60_000);
});
