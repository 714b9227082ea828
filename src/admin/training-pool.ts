/**
 * The threads that train intent models (a piscina pool), so that training an agent never holds the
 * event loop that answers turns. Threads start when there is training to do and end when idle;
 * they run at a lower scheduling priority than the event loop (a nice increment, on Linux).
 * From the TypeScript sources (tests, `node --import tsx`) a thread loads the worker's .ts file
 * with the tsx loader (a dev dependency); from the build (`npm start`) the compiled .js beside this file.
 */
import { Piscina } from 'piscina';

export interface TrainingPool {
  /** The exported intent model of a validated definition (as JSON); rejects when `signal` aborts. */
  train(definitionJson: string, signal?: AbortSignal): Promise<string>;
  /** Ends the threads; training in progress is rejected. */
  close(): Promise<void>;
}

const IDLE_MS = 30_000;
const NICE_INCREMENT = 10;

export function createTrainingPool(opts: { threads: number }): TrainingPool {
  const fromSource = import.meta.url.endsWith('.ts');
  const pool = new Piscina<string, string>({
    filename: new URL(`./training-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
    minThreads: 0,
    maxThreads: opts.threads,
    idleTimeout: IDLE_MS,
    niceIncrement: NICE_INCREMENT,
    // not the process's own flags: V8 flags such as --max-semi-space-size (npm start) are refused in a thread
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  });
  return {
    train: (definitionJson, signal) => pool.run(definitionJson, signal ? { signal } : {}),
    close: () => pool.destroy(),
  };
}
