/** Body parsing per route: only the encodings a route accepts; 415 for others, 413 past the limit. */
import express, { type RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../app-error.js';
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

/** Whether arrays/objects nest deeper than `max` levels; iterative, so a deep body cannot overflow it. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
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
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) req.on('data', count);
    const run = (i: number): void => {
      if (settled) return;
      if (i === parsers.length) return finish();
      parsers[i]!(req, res, (err?: unknown) => (err ? finish(err) : run(i + 1)));
    };
    run(0);
  };
}

export function bodyParsers(types: BodyType[], limit: string, limitName?: string): RequestHandler[] {
  const bytes = parseLimit(limit);
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
  const parsers: RequestHandler[] = [];
  const jsonTypes = types.filter((t) => t === 'json' || t === 'mergePatch').map((t) => MEDIA[t]);
  if (jsonTypes.length) parsers.push(express.json({ limit, strict: false, type: jsonTypes }));
  if (types.includes('urlencoded')) parsers.push(express.urlencoded({ limit, extended: false, parameterLimit: 200 }));
  if (types.includes('multipart')) {
    const upload = multer({ limits: { fieldSize: bytes, fields: 200, files: 0, parts: 200 } }).none();
    parsers.push((req, res, next) => {
      if (!req.is('multipart/form-data')) return next();
      upload(req, res, (err: unknown) => {
        if (!err) return next();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FIELD_VALUE' || code === 'LIMIT_PART_COUNT' || code === 'LIMIT_FIELD_COUNT') return next(tooLarge());
        next(AppError.badRequest('Malformed multipart body'));
      });
    });
  }
  const list: RequestHandler[] = [guard];
  if (parsers.length) list.push(streamingLimit(bytes, tooLarge, parsers));
  if (types.length) {
    list.push((req, _res, next) => {
      if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) return next(AppError.badRequest(`The body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`, 'body'));
      next();
    });
  }
  return list;
}
