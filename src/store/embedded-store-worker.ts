/**
 * The embedded store's worker thread: it opens the data directory's SQLite store (sqlite-store.ts)
 * and answers the calls the event loop's side posts (embedded-store.ts). better-sqlite3 is
 * synchronous, so here its statements, its group commits and the disk's waits run beside the event
 * loop instead of on it. The calls of one turn of this thread's loop share one group commit, as they
 * did on the event loop; a write is answered only after its group is in the log.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteStore } from './sqlite-store.js';
import { NewerDataError } from './sqlite-database.js';
import {
  EMBEDDED_CALLS,
  type CarriedError,
  type EmbeddedReply,
  type EmbeddedRequest,
  type EmbeddedWorkerData,
} from './embedded-store-protocol.js';

const port = parentPort;
if (!port) throw new Error('embedded-store-worker.ts runs only as a worker thread (see embedded-store.ts)');

const CALLS = new Set<string>(EMBEDDED_CALLS);

/** Streams that got entries since the last answer (carried by the next one). */
const added = new Set<string>();

function carried(err: unknown): CarriedError {
  if (err instanceof NewerDataError)
    return { name: err.name, message: err.message, file: err.file, found: err.found };
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(err) };
}

function answer(reply: Extract<EmbeddedReply, { id: number }>): void {
  if (added.size) {
    reply.added = [...added];
    added.clear();
  }
  port!.postMessage(reply);
}

function serve(store: SqliteStore): void {
  const methods = store as unknown as Record<string, (...a: unknown[]) => unknown>;
  port!.on('message', ({ id, m, a }: EmbeddedRequest) => {
    const result = (async () => {
      if (!CALLS.has(m)) throw new TypeError(`the embedded store has no call ${String(m)}`);
      return methods[m]!.apply(store, a);
    })();
    result.then(
      (r) => {
        answer({ id, r });
        if (m === 'close') port!.close();
      },
      (err: unknown) => answer({ id, e: carried(err) }),
    );
  });
}

const { dir, prefix, syncMs } = workerData as EmbeddedWorkerData;
SqliteStore.open({ dir, prefix, syncMs, onStreamAdded: (key) => added.add(key) }).then(
  (store) => {
    serve(store);
    const { file, foundVersion, backup } = store.database;
    port.postMessage({
      ready: { file, foundVersion, ...(backup ? { backup } : {}) },
    } satisfies EmbeddedReply);
  },
  (err: unknown) => {
    port.postMessage({ failed: carried(err) } satisfies EmbeddedReply);
    port.close();
  },
);
