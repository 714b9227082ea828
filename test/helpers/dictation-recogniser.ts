/**
 * A recogniser's grammar server (outside the system): it serves a dictation grammar that takes any
 * words (SRGS GARBAGE, no tags), which a grammar-based browser's transcription engine setting can
 * point at (the strict-w3c caller has no builtin:speech/transcribe).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const DICTATION = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<grammar xmlns="http://www.w3.org/2001/06/grammar" version="1.0" mode="voice" root="dictation" xml:lang="en-US">',
  '<rule id="dictation" scope="public"><ruleref special="GARBAGE"/></rule>',
  '</grammar>',
].join('');

export interface DictationRecogniser {
  /** The dictation grammar's URL. */
  grammarUrl: string;
  fetches: () => number;
  close: () => Promise<void>;
}

export async function startDictationRecogniser(): Promise<DictationRecogniser> {
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/dictation.grxml') {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    res.writeHead(200, { 'Content-Type': 'application/srgs+xml' }).end(DICTATION);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    grammarUrl: `${url}/dictation.grxml`,
    fetches: () => fetches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
