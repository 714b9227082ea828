/**
 * The operator console at /console/: the bundle `npm run build` writes to dist/console-client (the
 * client is in console/, built with Vite), served from this origin so that it works offline. Every path
 * under /console/ that is not an asset answers the page itself (the client routes by URL). The page
 * runs no inline script and holds no secret; its CSP allows scripts and connections to this origin
 * only, and forbids framing. Styles come from this origin, plus the `<style>` elements the code
 * editor makes, which carry the page's nonce: a fresh random one in every page served (the build
 * leaves the placeholder CONSOLE_CSP_NONCE in the page's meta and tags for it).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Response, type Router } from 'express';

const NONCE_PLACEHOLDER = /CONSOLE_CSP_NONCE/g;

export const consoleCsp = (nonce: string): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

export interface ConsolePagesOptions {
  /** The built bundle (default: dist/console-client at the repository root). */
  dir?: string;
}

/** The repository root: this file is src/platform/http/ (tests) or dist/platform/http/ (the build). */
const defaultDir = (): string =>
  resolve(fileURLToPath(new URL('../../../', import.meta.url)), 'dist', 'console-client');

const NOT_BUILT =
  'The operator console is not built. Run `npm run build` (npm start does it), then reload.\n';

function strictHeaders(res: Response, nonce = randomBytes(18).toString('base64')): void {
  res.setHeader('Content-Security-Policy', consoleCsp(nonce));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
}

export function consolePages(opts: ConsolePagesOptions = {}): Router {
  const dir = opts.dir ?? defaultDir();
  const router = express.Router({ strict: true });
  router.use('/console', (_req, res, next) => {
    strictHeaders(res);
    next();
  });
  router.get('/console', (_req, res) => res.redirect(301, '/console/'));
  // hashed file names: cached for a year; a missing asset is a 404, never the page
  router.use(
    '/console/assets',
    express.static(join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
      dotfiles: 'deny',
    }),
  );
  router.get(['/console/', '/console/*splat'], async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    let page: string;
    try {
      page = await readFile(join(dir, 'index.html'), 'utf8');
    } catch {
      res.status(503).type('text/plain').send(NOT_BUILT);
      return;
    }
    // base64 of random bytes: nothing in it can end an attribute
    const nonce = randomBytes(18).toString('base64');
    strictHeaders(res, nonce);
    res.type('html').send(page.replace(NONCE_PLACEHOLDER, nonce));
  });
  return router;
}
