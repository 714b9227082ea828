/** Routes of batch tests: operator suites, public launch and status, the signed result-file download. */
import { z } from 'zod';
import { defineRoute, type RateLimitGate, type RouteDef } from '../platform/index.js';
import { FILE_PATH } from './file-links.js';
import { languageHeader, type TestrunsService } from './testruns-service.js';
import {
  acceptedAnswer,
  botStatusParams,
  fileParams,
  fileQuery,
  runBody,
  runParams,
  statusAnswer,
  streamStatusParams,
  suiteAnswer,
  suiteBody,
  suiteParams,
  suiteSummary,
} from './testruns-schemas.js';

const admin = { kind: 'admin' } as const;
const errors = {
  401: { description: 'missing or invalid token, or the token belongs to another app' },
  403: { description: 'the API app lacks the batch-tests scope' },
  404: { description: '"Test Suite not found" or "Test Result not found."' },
  429: { description: 'bot API rate limit' },
};

export function testrunsRoutes(svc: TestrunsService, gate: RateLimitGate | null): RouteDef[] {
  const limit = async (streamId: string): Promise<void> => {
    if (gate) await gate.check(streamId);
  };
  const status = (
    streamId: string,
    p: { testSuiteName: string; testRunId: string },
    ctx: { headers: Record<string, string | string[] | undefined>; baseUrl: string },
  ) =>
    svc.status({
      streamId,
      suiteName: p.testSuiteName,
      runId: p.testRunId,
      language: languageHeader(ctx.headers),
      baseUrl: ctx.baseUrl,
    });

  return [
    defineRoute({
      method: 'put',
      path: '/api/admin/apps/:streamId/testsuites/:name',
      summary: 'Create or replace a test suite',
      tags: ['operator'],
      auth: admin,
      params: suiteParams,
      body: suiteBody,
      responses: {
        200: { description: 'the stored suite (its id is kept across replacements)', schema: suiteSummary },
        400: { description: 'every problem with its path' },
      },
      handler: async ({ params, body }) => {
        const { utterances: _omitted, ...summary } = await svc.putSuite(
          params.streamId,
          params.name,
          body.utterances,
        );
        return { json: summary };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/admin/apps/:streamId/testsuites/:name',
      summary: 'Read a test suite',
      tags: ['operator'],
      auth: admin,
      params: suiteParams,
      responses: {
        200: { description: 'the suite', schema: suiteAnswer },
        404: { description: 'Test Suite not found' },
      },
      handler: async ({ params }) => ({ json: await svc.getSuite(params.streamId, params.name) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/public/bot/:botId/testsuite/:testSuiteName/run',
      summary: 'Run a test suite (batch test)',
      tags: ['batch tests'],
      auth: { kind: 'jwt', scope: 'batch-tests', appParam: 'botId' },
      params: runParams,
      body: runBody,
      bodyTypes: ['json', 'urlencoded'],
      mergeQueryIntoBody: true,
      responses: {
        202: { description: 'accepted; the run executes in the background', schema: acceptedAnswer },
        ...errors,
        409: { description: 'a run of this suite is in progress' },
        400: { description: 'bad input, or a bot-language the agent does not speak' },
        422: { description: 'no agent' },
      },
      handler: async (ctx) => {
        const streamId = ctx.params.botId; // the public path's name for the app's streamId
        await limit(streamId);
        const accepted = await svc.launch({
          streamId,
          suiteName: ctx.params.testSuiteName,
          runType: ctx.body.runType,
          language: languageHeader(ctx.headers),
          principal: ctx.principal,
          baseUrl: ctx.baseUrl,
        });
        return { status: 202, json: accepted };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/public/bot/:botId/testsuite/:testSuiteName/:testRunId/status',
      summary: 'Batch test run status',
      tags: ['batch tests'],
      auth: { kind: 'jwt', scope: 'batch-tests', appParam: 'botId' },
      params: botStatusParams,
      responses: {
        200: { description: 'running or completed (or failed) form', schema: statusAnswer },
        ...errors,
      },
      handler: async (ctx) => {
        const streamId = ctx.params.botId; // the public path's name for the app's streamId
        await limit(streamId);
        return { json: await status(streamId, ctx.params, ctx) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/public/stream/:streamId/testsuite/:testSuiteName/:testRunId/status',
      summary: 'Batch test run status (stream form)',
      tags: ['batch tests'],
      auth: { kind: 'jwt', scope: 'batch-tests', appParam: 'streamId' },
      params: streamStatusParams,
      responses: {
        200: { description: 'running or completed (or failed) form', schema: statusAnswer },
        ...errors,
      },
      handler: async (ctx) => {
        await limit(ctx.params.streamId);
        return { json: await status(ctx.params.streamId, ctx.params, ctx) };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${FILE_PATH}/:fileId`,
      summary: 'Download a result file (signed, expiring link; no auth header)',
      tags: ['batch tests'],
      auth: { kind: 'none' },
      params: fileParams,
      query: fileQuery,
      responses: {
        200: { description: 'the CSV result file', contentType: 'text/csv', schema: z.string() },
        403: { description: 'invalid (tampered) link' },
        404: { description: 'no such file' },
        410: { description: 'the link has expired' },
      },
      handler: async ({ params, query }) => {
        const file = await svc.download(params.fileId, query.exp, query.sig);
        return {
          text: file.csv,
          contentType: 'text/csv; charset=utf-8',
          headers: {
            'Content-Disposition': `attachment; filename="${file.filename}"`,
            'Cache-Control': 'private, no-store',
            'X-Content-Type-Options': 'nosniff',
          },
        };
      },
    }),
  ];
}
