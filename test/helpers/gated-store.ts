/**
 * The memory store with a test's hand on its writes, as a slow or refusing Redis would behave:
 * `hold` keeps the next atomic write that matches waiting until the test releases it (the work that
 * made it stays in progress meanwhile, however fast it would otherwise end); `refuse` answers the
 * next matching write with a Redis error reply (not a lost connection). Everything else is the
 * memory store itself.
 */
import { MemoryStore, type AtomicResult, type Guard, type WriteOp } from '../../src/store/index.js';

type Match = (ops: WriteOp[]) => boolean;

interface Rule {
  match: Match;
  reached: () => void;
  /** Waits before the write goes on, or rejects it. */
  act: () => Promise<void>;
}

/** A write that sets `key` (any op naming it). */
export const writes =
  (key: string): Match =>
  (ops) =>
    ops.some((op) => op.key === key);

export class GatedStore extends MemoryStore {
  private readonly rules: Rule[] = [];

  /** Holds the next write matching `match`; `reached` resolves when it arrives, `release` lets it through. */
  hold(match: Match): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    this.rules.push({ match, reached, act: () => released });
    return { reached: arrived, release };
  }

  /** Refuses the next write matching `match` with a Redis error reply; `reached` resolves when it is refused. */
  refuse(match: Match, message: string): { reached: Promise<void> } {
    let reached!: () => void;
    const arrived = new Promise<void>((r) => (reached = r));
    const error = Object.assign(new Error(message), { name: 'ReplyError' });
    this.rules.push({ match, reached, act: () => Promise.reject(error) });
    return { reached: arrived };
  }

  override async atomic(ops: WriteOp[], guards: Guard[] = []): Promise<AtomicResult> {
    const i = this.rules.findIndex((r) => r.match(ops));
    if (i >= 0) {
      const [rule] = this.rules.splice(i, 1);
      rule!.reached();
      await rule!.act();
    }
    return super.atomic(ops, guards);
  }
}
