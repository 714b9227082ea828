/**
 * Builds the operator console (console/src, Preact) into dist/console-client, which the service
 * serves at /console/ (not dist/console-sign-in: that is the compiled src/console-sign-in
 * component). Run by `npm run build` through console/build-if-stale.ts.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // the service puts a fresh nonce here in every page it serves (CodeMirror's style elements carry it)
  html: { cspNonce: 'CONSOLE_CSP_NONCE' },
  build: {
    outDir: fileURLToPath(new URL('../dist/console-client', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // the page must run without inline script (CSP script-src 'self')
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1200,
  },
});
