/**
 * `npm run build:console`: builds the operator console with Vite when dist/console-client is
 * missing or older than any file under console/, sandbox/ or package-lock.json (so `npm start` rebuilds it
 * only when needed). `--force` builds in any case.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const stamp = join(root, 'dist', 'console-client', '.built');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function consoleIsStale(): boolean {
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'console-client', 'index.html'))) return true;
  // the console bundles the VoiceXML interpreter of sandbox/ (the web caller)
  const sources = Math.max(
    newestMtime(here),
    newestMtime(join(root, 'sandbox')),
    newestMtime(join(root, 'package-lock.json')),
  );
  return sources > statSync(stamp).mtimeMs;
}

export async function buildConsole(force = false): Promise<boolean> {
  if (!force && !consoleIsStale()) return false;
  process.stdout.write('building the operator console into dist/console-client (Vite)...\n');
  await build({ configFile: join(here, 'vite.config.ts') });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = await buildConsole(process.argv.includes('--force'));
  process.stdout.write(
    built
      ? 'operator console built into dist/console-client\n'
      : 'operator console is up to date (dist/console-client)\n',
  );
}
