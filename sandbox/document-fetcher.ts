/**
 * Fetches VoiceXML documents (and external grammars) the way a browser does: GET puts the parameters
 * in the query, POST sends them urlencoded (or multipart), every fetch is timed, and a network
 * failure, a timeout, a non-2xx status or a body that is not a `<vxml>` document is error.badfetch
 * (error.badfetch.http.<status> for a status) — the body of a failed answer is never run.
 */
import type { FetchRecord } from './call-outcome.js';
import type { LoadedDocument } from './control-signal.js';
import { badFetch } from './vxml-event.js';
import { parseXmlTree, type XmlElement } from './xml-tree.js';

export interface FetchRequest {
  kind: FetchRecord['kind'];
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
  /** application/x-www-form-urlencoded (default) or multipart/form-data. */
  enctype?: string;
  timeoutMs: number;
}

export class DocumentFetcher {
  constructor(
    private readonly fetchImpl: typeof fetch,
    /** Each fetch as it ends, with the body when one came back (the web caller shows it). */
    private readonly onFetch: (record: FetchRecord, body?: string) => void,
  ) {}

  /** Fetches and parses a VoiceXML document; raises error.badfetch on any failure. */
  async fetchDocument(request: FetchRequest): Promise<LoadedDocument> {
    const { text, url } = await this.fetchText(request);
    let root;
    try {
      root = parseXmlTree(text);
    } catch (err) {
      throw badFetch(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (root.name !== 'vxml') throw badFetch(`${url}: the answer is a <${root.name}>, not a <vxml> document`);
    return { url, root };
  }

  /** Fetches and parses any XML document (`<data>`); raises error.badfetch on any failure. */
  async fetchXml(request: FetchRequest): Promise<XmlElement> {
    const { text, url } = await this.fetchText(request);
    try {
      return parseXmlTree(text);
    } catch (err) {
      throw badFetch(`${url}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Fetches a body as text; raises error.badfetch on a network failure, a timeout or a non-2xx status. */
  async fetchText(request: FetchRequest): Promise<{ text: string; url: string; status: number }> {
    const target = new URL(request.url);
    target.hash = '';
    const init: RequestInit = {
      method: request.method,
      headers: { Accept: 'application/voicexml+xml, application/xml;q=0.9, */*;q=0.5' },
    };
    if (request.method === 'GET') {
      for (const [k, v] of Object.entries(request.params)) target.searchParams.append(k, v);
    } else if (request.enctype === 'multipart/form-data') {
      const form = new FormData();
      for (const [k, v] of Object.entries(request.params)) form.append(k, v);
      init.body = form;
    } else {
      init.body = new URLSearchParams(request.params).toString();
      init.headers = {
        ...(init.headers as Record<string, string>),
        'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
      };
    }
    const requested = target.toString();
    const started = performance.now();
    const record = (extra: Partial<FetchRecord>, body?: string): void =>
      this.onFetch(
        {
          kind: request.kind,
          method: request.method,
          url: requested,
          params: request.params,
          ms: Math.round(performance.now() - started),
          ...extra,
        },
        body,
      );
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(requested, { ...init, signal: AbortSignal.timeout(request.timeoutMs) });
      text = await response.text();
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const why = timedOut ? `no answer within ${request.timeoutMs} ms` : describeNetworkError(err);
      record({ error: why });
      throw badFetch(`${request.method} ${requested}: ${why}`);
    }
    record({ status: response.status }, text);
    if (response.status < 200 || response.status > 299) {
      throw badFetch(`${request.method} ${requested} answered HTTP ${response.status}`, response.status);
    }
    return { text, url: response.url || requested, status: response.status };
  }
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: unknown }).cause;
  if (cause instanceof Error)
    return `${err.message} (${(cause as Error & { code?: string }).code ?? cause.message})`;
  return err.message;
}

/** Parses a VoiceXML time designation ("10s", "500ms", "4") into milliseconds. */
export function parseTimeMs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(value);
  if (!m) return fallback;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n;
}
