/**
 * The embedded store's group commit: the write steps of one turn of the event loop share one SQLite
 * transaction, committed on the next turn, and each step is answered only once its group is in the log.
 */
import type { Database } from 'better-sqlite3';

export class SqliteWriteGroup {
  /** The steps of the open group, answered when it commits. */
  private readonly grouped: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];

  constructor(private readonly db: Database) {}

  /**
   * Runs one step of writes in the current group: the steps of one turn of the event loop share one
   * SQLite transaction, committed on the next turn (one write to the log for all of them). Each step
   * is a savepoint inside it, so a failing step undoes only itself. A step is answered once its
   * group is committed: nothing is acknowledged before it is in the log.
   */
  async step<T>(fn: () => T): Promise<T> {
    const db = this.db;
    if (!db.inTransaction) {
      // IMMEDIATE: the write lock now, waiting (busy_timeout) while the checkpointer restarts the log
      db.exec('BEGIN IMMEDIATE');
      setImmediate(() => this.commitGroup());
    }
    const result = db.transaction(fn)();
    await new Promise<void>((resolve, reject) => this.grouped.push({ resolve, reject }));
    return result;
  }

  /** Commits the open group now (also what closing the store does first). */
  commitGroup(): void {
    const waiting = this.grouped.splice(0);
    const db = this.db;
    try {
      if (db.inTransaction) db.exec('COMMIT');
      for (const w of waiting) w.resolve();
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const w of waiting) w.reject(err);
    }
  }
}
