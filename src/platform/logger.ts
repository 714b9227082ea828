/**
 * pino logger with every secret-bearing header and field redacted, a URL serializer that strips
 * secret query parameters (the webhook's `token`), and the active span's ids on every line.
 */
import { pino, type Logger, type DestinationStream } from 'pino';
import { traceFields } from './telemetry.js';

export type { Logger };

const SECRET_KEYS = [
  'token',
  'auth',
  'authorization',
  'x-api-key',
  'apiKey',
  'API_KEY',
  'LLM_API_KEY',
  'clientSecret',
  'secret',
  'pin',
  'password',
  'masterKey',
  'adminToken',
  'cookie',
  'value',
];

export const redactPaths = [
  'req.headers.authorization',
  'req.headers.auth',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.filter((k) => k !== 'value').flatMap((k) =>
    /^[A-Za-z_$][\w$]*$/.test(k) ? [k, `*.${k}`] : [`["${k}"]`, `*["${k}"]`],
  ),
  'fields.*',
  '*.fields.*',
  '*.headers[*].value',
];

const SECRET_QUERY = /([?&](?:token|auth|apiKey|api_key|secret|pin|sig|signature)=)[^&#]*/gi;

/** Removes secret query parameters from a URL before it is logged. */
export const scrubUrl = (url: string): string => url.replace(SECRET_QUERY, '$1[Redacted]');

export function createLogger(opts: {
  level: string;
  destination?: DestinationStream;
  name?: string;
}): Logger {
  return pino(
    {
      level: opts.level,
      name: opts.name ?? 'ivr-gateway',
      redact: { paths: redactPaths, censor: '[Redacted]' },
      serializers: {
        err: pino.stdSerializers.err,
      },
      // the active span's trace_id and span_id (none while telemetry is off: the API's no-op)
      mixin: traceFields,
    },
    opts.destination,
  );
}
