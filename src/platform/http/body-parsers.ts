/** Body parsing per route: only the encodings a route accepts; 415 for others, 413 past the limit. */
import express, { type RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '../app-error.js';
import type { BodyType } from './route-def.js';

const MEDIA: Record<BodyType, string> = {
  json: 'application/json',
  urlencoded: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

const parseLimit = (limit: string): number => {
  const m = /^(\d+)(b|kb|mb)$/i.exec(limit);
  if (!m) return 1024 * 1024;
  const unit = m[2]!.toLowerCase();
  return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
};

const hasBody = (req: express.Request): boolean => {
  const len = req.headers['content-length'];
  if (len !== undefined) return Number(len) > 0;
  return req.headers['transfer-encoding'] !== undefined;
};

export function bodyParsers(types: BodyType[], limit: string): RequestHandler[] {
  const bytes = parseLimit(limit);
  const accepted = types.map((t) => MEDIA[t]);
  const guard: RequestHandler = (req, _res, next) => {
    if (!hasBody(req)) return next();
    const len = Number(req.headers['content-length'] ?? 0);
    if (len > bytes) return next(AppError.tooLarge(limit));
    const ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!accepted.includes(ct)) return next(AppError.unsupportedMediaType(accepted));
    next();
  };
  const list: RequestHandler[] = [guard];
  if (types.includes('json')) list.push(express.json({ limit, strict: false }));
  if (types.includes('urlencoded')) list.push(express.urlencoded({ limit, extended: false, parameterLimit: 200 }));
  if (types.includes('multipart')) {
    const upload = multer({ limits: { fieldSize: bytes, fields: 200, files: 0, parts: 200 } }).none();
    list.push((req, res, next) => {
      if (!req.is('multipart/form-data')) return next();
      upload(req, res, (err: unknown) => {
        if (!err) return next();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FIELD_VALUE' || code === 'LIMIT_PART_COUNT' || code === 'LIMIT_FIELD_COUNT') return next(AppError.tooLarge(limit));
        next(AppError.badRequest('Malformed multipart body'));
      });
    });
  }
  return list;
}
