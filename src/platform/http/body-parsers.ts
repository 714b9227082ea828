/** Body parsing per route: only the encodings a route accepts; 415 for others, 413 past the limit. */
import express, { type RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../app-error.js';
import { jsonShapeScan } from './json-shape-scan.js';
import { MEDIA, type BodyType } from './route-def.js';

const parseLimit = (limit: string): number => {
  const m = /^(\d+)(b|kb|mb)$/i.exec(limit);
  if (!m) return 1024 * 1024;
  const unit = m[2]!.toLowerCase();
  return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
};

/**
 * Deepest nesting a parsed body may have. JSON.parse accepts any depth, but JSON.stringify (storing
 * a free-form member, answering it back) overflows the stack past a few thousand levels: a 500.
 */
export const MAX_BODY_DEPTH = 64;

/**
 * Most entries (object keys and array elements, together) of a JSON body, and most fields of a
 * form, when the route declares none: one per 10 bytes of its size limit, at least 1,000. A route
 * whose body is small and known declares its own (`bodyLimit.maxKeys`).
 */
export const defaultMaxKeys = (bytes: number): number => Math.max(1000, Math.floor(bytes / 10));

/** Most fields of a urlencoded or multipart body on any route. */
const MAX_FORM_FIELDS = 200;

/** A route's body limits: its size (like 64kb), the setting or reason named in a 413, and its key count. */
export interface BodyLimits {
  size: string;
  name?: string;
  maxKeys?: number;
}

const hasBody = (req: express.Request): boolean => {
  const len = req.headers['content-length'];
  if (len !== undefined) return Number(len) > 0;
  return req.headers['transfer-encoding'] !== undefined;
};

/**
 * A body without Content-Length (chunked) is counted as it arrives: past the limit the request is
 * refused with 413 at once, and the rest of the upload is discarded without being parsed (no
 * abrupt close, which would reset the connection before the client reads the 413). body-parser
 * would read the whole rest before answering, and multer limits each field but not their total.
 */
function streamingLimit(bytes: number, tooLarge: () => AppError, parsers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let settled = false;
    const finish = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      req.off('data', count);
      next(err);
    };
    let seen = 0;
    const count = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen <= bytes) return;
      req.unpipe();
      req.resume();
      finish(tooLarge());
    };
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined)
      req.on('data', count);
    const run = (i: number): void => {
      if (settled) return;
      if (i === parsers.length) return finish();
      parsers[i]!(req, res, (err?: unknown) => (err ? finish(err) : run(i + 1)));
    };
    run(0);
  };
}

/**
 * The parsers of a route. Their limits hold while the body is read and parsed, never after: the
 * size by Content-Length before a byte is read (and by counting, for a chunked body); the JSON
 * entries and depth by a linear pre-scan of the raw bytes before JSON.parse (json-shape-scan.ts);
 * the fields of a form by the parsers' own counts.
 */
export function bodyParsers(types: BodyType[], limits: BodyLimits): RequestHandler[] {
  const { size: limit, name: limitName } = limits;
  const bytes = parseLimit(limit);
  const maxKeys = limits.maxKeys ?? defaultMaxKeys(bytes);
  const tooLarge = (): AppError => AppError.tooLarge(limit, limitName);
  const accepted = types.map((t) => MEDIA[t]);
  const guard: RequestHandler = (req, _res, next) => {
    if (!hasBody(req)) return next();
    const len = Number(req.headers['content-length'] ?? 0);
    if (len > bytes) return next(tooLarge());
    const ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!accepted.includes(ct)) return next(AppError.unsupportedMediaType(accepted));
    next();
  };
  const shape = { maxEntries: maxKeys, maxDepth: MAX_BODY_DEPTH };
  // runs on the raw bytes before JSON.parse; what it throws answers the request
  const verify = (_req: unknown, _res: unknown, buf: Buffer): void => {
    const problem = jsonShapeScan(buf, shape);
    if (problem?.kind === 'depth')
      throw AppError.badRequest(`The body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`, 'body');
    if (problem)
      throw AppError.limitExceeded([
        {
          msg: `The body has too many keys and array elements (at most ${maxKeys} on this route)`,
          path: 'body',
        },
      ]);
  };
  const parsers: RequestHandler[] = [];
  const jsonTypes = types.filter((t) => t === 'json' || t === 'mergePatch').map((t) => MEDIA[t]);
  if (jsonTypes.length) parsers.push(express.json({ limit, strict: false, type: jsonTypes, verify }));
  if (types.includes('urlencoded'))
    parsers.push(
      express.urlencoded({ limit, extended: false, parameterLimit: Math.min(maxKeys, MAX_FORM_FIELDS) }),
    );
  if (types.includes('multipart')) {
    const fields = Math.min(maxKeys, MAX_FORM_FIELDS);
    const upload = multer({ limits: { fieldSize: bytes, fields, files: 0, parts: fields } }).none();
    parsers.push((req, res, next) => {
      if (!req.is('multipart/form-data')) return next();
      upload(req, res, (err: unknown) => {
        if (!err) return next();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FIELD_VALUE' || code === 'LIMIT_PART_COUNT' || code === 'LIMIT_FIELD_COUNT')
          return next(tooLarge());
        next(AppError.badRequest('Malformed multipart body'));
      });
    });
  }
  const list: RequestHandler[] = [guard];
  if (parsers.length) list.push(streamingLimit(bytes, tooLarge, parsers));
  return list;
}
