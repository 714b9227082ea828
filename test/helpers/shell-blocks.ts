/**
 * The `sh` code blocks of a Markdown page, and a way to run them exactly as written: each block's
 * text, unchanged, is the script of one `bash` process (with `set -e -o pipefail` in front, so a
 * line that fails fails the block), in the repository's root, with the environment given.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface ShellBlock {
  /** 1-based, among the page's sh blocks. */
  index: number;
  /** The line of the page where the block's text starts. */
  line: number;
  text: string;
}

export function shellBlocks(page: string): ShellBlock[] {
  const markdown = readFileSync(join(repoRoot, page), 'utf8');
  return [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((m, i) => ({
    index: i + 1,
    line: markdown.slice(0, m.index).split('\n').length + 1,
    text: m[1]!,
  }));
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one block with bash (strict: the first failing command fails it) and the given environment. */
export function runShellBlock(
  block: ShellBlock,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -e -o pipefail\n${block.text}`], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
