/** A small Server-Sent Events reader over fetch for tests: events as they come, by id, event and data. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

export class SseClient {
  private buffer = '';
  private readonly queue: SseEvent[] = [];
  private readonly controller = new AbortController();
  private reader!: ReadableStreamDefaultReader<Uint8Array>;
  status = 0;
  contentType = '';
  /** Comment lines as they came (heartbeats), with when (performance.now()). */
  readonly comments: Array<{ at: number; text: string }> = [];

  /** The answer's body when it was not a feed (an error's JSON). */
  body: unknown;
  retryAfter: string | null = null;

  static async open(url: string, headers: Record<string, string>): Promise<SseClient> {
    const c = new SseClient();
    const res = await fetch(url, { headers, signal: c.controller.signal });
    c.status = res.status;
    c.contentType = res.headers.get('content-type') ?? '';
    c.retryAfter = res.headers.get('retry-after');
    if (!c.contentType.includes('text/event-stream')) {
      c.body = await res.json().catch(() => undefined);
      return c;
    }
    c.reader = res.body!.getReader();
    return c;
  }

  /** The next event with data (comments skipped); waits for it. */
  async next(): Promise<SseEvent> {
    const decoder = new TextDecoder();
    for (;;) {
      const ready = this.queue.shift();
      if (ready) return ready;
      const { value, done } = await this.reader.read();
      if (done) throw new Error('the feed ended');
      this.buffer += decoder.decode(value, { stream: true });
      let at: number;
      while ((at = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        const ev: SseEvent = { data: '' };
        let hasData = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            this.comments.push({ at: performance.now(), text: line.slice(1).trim() });
            continue;
          }
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') ev.id = value;
          else if (field === 'event') ev.event = value;
          else if (field === 'data') {
            ev.data += value;
            hasData = true;
          }
        }
        if (hasData) this.queue.push(ev);
      }
    }
  }

  close(): void {
    this.controller.abort();
  }
}
