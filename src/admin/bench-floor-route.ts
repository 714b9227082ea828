/**
 * The benchmark floor (registered only with BENCH_MODE=true): the webhook's parsers and middleware,
 * one store read and one store write, and a constant VoiceXML answer. `npm run bench` measures the
 * real turn against it, so the ratio shows what the turn itself costs.
 */
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../platform/index.js';
import { storeKeys, type Store } from '../store/index.js';

const FLOOR_DOCUMENT =
  '<?xml version="1.0" encoding="UTF-8"?><vxml xmlns="http://www.w3.org/2001/vxml" version="2.1"><form><block><prompt>ok</prompt></block></form></vxml>';

export function benchFloorRoute(store: Store): RouteDef {
  return defineRoute({
    method: ['get', 'post'],
    path: '/bench/floor/:streamId',
    summary: 'Benchmark floor: parsers, one store read and one write, a constant document',
    tags: ['bench'],
    auth: { kind: 'none' },
    params: z.object({ streamId: z.string().min(1).max(100) }),
    body: z.record(z.string(), z.unknown()),
    bodyTypes: ['json', 'urlencoded', 'multipart'],
    mergeQueryIntoBody: true,
    responses: {
      200: { description: 'a constant VoiceXML document', contentType: 'application/voicexml+xml' },
    },
    handler: async ({ params, body }) => {
      const callId = typeof body.callId === 'string' ? body.callId : 'bench';
      const key = storeKeys.callSession(params.streamId, `floor-${callId}`);
      const prev = await store.get(key);
      await store.set(key, String(Number(prev ?? 0) + 1), { ttlMs: 60_000 });
      return { xml: FLOOR_DOCUMENT };
    },
  });
}
