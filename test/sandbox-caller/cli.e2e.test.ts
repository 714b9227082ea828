/**
 * The CLI in scripted mode, run as a child process (node --import tsx sandbox/call.ts … --script
 * FILE: what `npm run call` runs, without the npx and tsx launcher processes, each a Node start-up
 * of its own per run) against the local gateway stub: its transcript and its exit codes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStub, type GatewayStub, type StubAnswer } from './gateway-stub.js';

const projectRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
let dir = '';
let stub: GatewayStub | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-caller-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** Runs the CLI without blocking this process (the stub server lives here). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/call.ts', ...args], {
      cwd: projectRoot,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const A2: StubAnswer[] = [
  { file: 'bootstrap.vxml' },
  { file: 'ask-intent.vxml' },
  {
    file: 'ask-entity-dtmf.vxml',
    transform: (x) => x.replace('builtin:grammar/number', 'builtin:grammar/digits'),
  },
  { file: 'say-continue.vxml' },
  { file: 'end-return.vxml' },
];

/** Run a: the entity document keeps builtin:grammar/number (voice), which W3C's browsers lack and Voxeo's have. */
const A: StubAnswer[] = [
  { file: 'bootstrap.vxml' },
  { file: 'ask-intent.vxml' },
  { file: 'ask-entity-dtmf.vxml' },
  { file: 'say-continue.vxml' },
  { file: 'end-return.vxml' },
];
const RUN_A_SCRIPT = [
  'expect: welcome to luigi',
  'say: check my booking',
  'expect: booking number',
  'dtmf: 4567',
  'expect: goodbye',
  'expect-end: true',
].join('\n');

describe('the CLI in scripted mode', () => {
  it('when the script matches the call (run a2), then the transcript shows prompts, inputs, submits with timing, and the exit code is 0', async () => {
    stub = await startGatewayStub({ hooks: A2 });
    writeFileSync(
      join(dir, 'a2.txt'),
      [
        '# run a2',
        'expect: welcome to luigi',
        'say: check my booking',
        'expect: booking number',
        'dtmf: 4567',
        'expect: table for four',
        'expect: goodbye',
        'expect-end: true',
      ].join('\n'),
    );
    const r = await cli([
      stub.webhookUrl,
      '--script',
      join(dir, 'a2.txt'),
      '--mode',
      'strict-w3c',
      '--call-id',
      'cli-1',
      '--from',
      '+15550002222',
    ]);
    expect(r.stderr).not.toMatch(/FAILED/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("🔊 Welcome to Luigi's. … How can I help you today?");
    expect(r.stdout).toContain('🗣 check my booking');
    expect(r.stdout).toMatch(
      /→ submit POST \/ivr\/hooks\/\S+ {2}turn=2 message=4567 interpretation=4567 confidence=1 inputmode=dtmf/,
    );
    expect(r.stdout).toMatch(/← 200 in \d+ ms/);
    expect(r.stdout).toContain('☎ call ended: return · endOfConversation=true');
    expect(stub.hookRequests()[1]?.body).toEqual({
      callId: 'cli-1',
      message: '',
      from: '+15550002222',
      to: 'st-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
    });
  }, 60_000);

  it('when the webhook URL carries a token, then the CLI prints it masked and never whole', async () => {
    stub = await startGatewayStub({ hooks: A2 });
    const token =
      'eyJhbGciOiJIUzI1NiJ9.eyJhcHBJZCI6ImNzLTEifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi10aGF0LW11c3Qtbm90LWxlYWs';
    writeFileSync(join(dir, 'masked.txt'), ['expect: welcome to luigi', 'hangup'].join('\n'));
    const url = new URL(stub.webhookUrl);
    url.searchParams.set('token', token);
    const r = await cli([url.toString(), '--script', join(dir, 'masked.txt')]);
    expect(r.stdout).toContain(`token=${token.slice(0, 6)}***`);
    expect(r.stdout + r.stderr).not.toContain(token.slice(10));
  }, 60_000);

  it('when an expectation fails, then the CLI stops with the script line and exits non-zero', async () => {
    stub = await startGatewayStub({ hooks: A2 });
    writeFileSync(join(dir, 'bad.txt'), 'expect: welcome to mario\nsay: check my booking\n');
    const r = await cli([stub.webhookUrl, '--script', join(dir, 'bad.txt')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /FAILED: script line 1 \(expect: welcome to mario\) failed: expected "welcome to mario"/,
    );
  }, 60_000);

  it('when the script runs out while a field waits, then the CLI exits non-zero and names the field', async () => {
    stub = await startGatewayStub({ hooks: A2 });
    writeFileSync(join(dir, 'short.txt'), 'say: check my booking\n');
    const r = await cli([stub.webhookUrl, '--script', join(dir, 'short.txt')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/inputs ran out while field "userinput" waits for input/);
  }, 60_000);

  it('when a W3C browser is emulated, then a Voxeo-only builtin is error.badfetch even in lenient mode, and the exit code is 1', async () => {
    stub = await startGatewayStub({ hooks: A });
    writeFileSync(
      join(dir, 'run-a-w3c.txt'),
      [
        'expect: welcome to luigi',
        'say: check my booking',
        'expect-event: error.badfetch',
        'expect: not available right now',
      ].join('\n'),
    );
    const r = await cli([
      stub.webhookUrl,
      '--script',
      join(dir, 'run-a-w3c.txt'),
      '--dialect',
      'w3c',
      '--mode',
      'lenient',
    ]);
    expect(r.stdout).toMatch(/\(dialect w3c, mode lenient, callId /);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "builtin:grammar/number is not supported: this browser's voice builtins are boolean, digits",
    );
    // the entity turn was never submitted
    expect(stub.hookRequests().map((q) => q.body.turn)).not.toContain('2');
  }, 60_000);

  it('when Voxeo Prophecy is emulated, then the same builtin is taken even in strict-w3c mode, and the call ends normally', async () => {
    stub = await startGatewayStub({ hooks: A });
    writeFileSync(join(dir, 'run-a.txt'), RUN_A_SCRIPT);
    const r = await cli([
      stub.webhookUrl,
      '--script',
      join(dir, 'run-a.txt'),
      '--dialect',
      'voxeo-prophecy',
      '--mode',
      'strict-w3c',
    ]);
    expect(r.stderr).not.toMatch(/FAILED/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(dialect voxeo-prophecy, mode strict-w3c, callId /);
    expect(r.stdout).not.toContain('error.badfetch');
    expect(stub.hookRequests().find((q) => q.body.turn === '2')?.body).toMatchObject({
      message: '4567',
      inputmode: 'dtmf',
    });
  }, 60_000);

  it('when --dialect is given without --mode, then the call runs in the mode of that dialect', async () => {
    writeFileSync(join(dir, 'hangup.txt'), ['expect: welcome to luigi', 'hangup'].join('\n'));
    for (const [dialect, mode] of [
      ['w3c', 'strict-w3c'],
      ['voxeo-prophecy', 'lenient'],
    ] as const) {
      stub = await startGatewayStub({ hooks: A });
      const r = await cli([stub.webhookUrl, '--script', join(dir, 'hangup.txt'), '--dialect', dialect]);
      expect(r.stdout).toContain(`(dialect ${dialect}, mode ${mode}, callId `);
      await stub.close();
      stub = undefined;
    }
  }, 60_000);

  it('when the dialect is unknown, then the CLI names the known ones and exits with 2', async () => {
    const r = await cli(['http://127.0.0.1:1/ivr/hooks/st-1', '--dialect', 'genesys']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--dialect must be one of w3c, jvoicexml, cisco-vvb, voxeo-prophecy, not "genesys"',
    );
    expect(r.stderr).toMatch(/usage: npm run call --/);
  }, 60_000);

  it('when the arguments are wrong, then the CLI prints the usage and exits with 2', async () => {
    const r = await cli(['not-a-number', '--mode', 'lenient']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: npm run call --/);
  }, 60_000);
});
