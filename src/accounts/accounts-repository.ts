/**
 * Accounts in the store, all under one hash tag so that each change is one atomic step: the account
 * record, its email index (the SHA-256 of the address), its pending invitation (by the SHA-256 of the
 * token, with a TTL) and its personal API tokens (by the SHA-256 of the token). No token and no
 * password is kept, only hashes.
 */
import { AppError, sha256 } from '../platform/index.js';
import { storeKeys, type Guard, type Store, type WriteOp } from '../store/index.js';
import type { AccountRecord } from './accounts-schemas.js';

export interface InvitationRecord {
  accountId: string;
  expiresAt: string;
}

export interface TokenRecord {
  id: string;
  accountId: string;
  name: string;
  createdOn: string;
}

/** How long an expired invitation is still told apart from an unknown one. */
const EXPIRED_INVITATION_KEPT_MS = 7 * 86_400_000;

export class AccountsRepository {
  constructor(private readonly store: Store) {}

  async find(accountId: string): Promise<AccountRecord | null> {
    const raw = await this.store.get(storeKeys.operatorAccount(accountId));
    return raw ? (JSON.parse(raw) as AccountRecord) : null;
  }

  async findByEmail(email: string): Promise<AccountRecord | null> {
    const id = await this.store.get(storeKeys.operatorEmail(sha256(email)));
    return id ? this.find(id) : null;
  }

  async list(): Promise<AccountRecord[]> {
    const ids = (await this.store.zrange(storeKeys.operatorIndex(), 0, -1)).map((m) => m.member);
    const raws = ids.length ? await this.store.mget(ids.map((id) => storeKeys.operatorAccount(id))) : [];
    return raws.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as AccountRecord);
  }

  /** Makes an account with its invitation; 409 when the email is taken. */
  async create(
    rec: AccountRecord,
    invitationHash: string,
    invitation: InvitationRecord,
    nowMs: number,
  ): Promise<void> {
    const emailKey = storeKeys.operatorEmail(sha256(rec.email));
    const done = await this.store.atomic(
      [
        { op: 'set', key: storeKeys.operatorAccount(rec.id), value: JSON.stringify(rec) },
        { op: 'set', key: emailKey, value: rec.id },
        { op: 'zadd', key: storeKeys.operatorIndex(), score: Date.parse(rec.createdOn), member: rec.id },
        this.invitationWrite(invitationHash, invitation, nowMs),
      ],
      [{ key: emailKey, absent: true }],
    );
    if (!done.ok) throw AppError.conflict('An account with this email exists', 'body.email');
  }

  private invitationWrite(hash: string, inv: InvitationRecord, nowMs: number): WriteOp {
    const ttlMs = Math.max(1000, Date.parse(inv.expiresAt) - nowMs + EXPIRED_INVITATION_KEPT_MS);
    return { op: 'set', key: storeKeys.operatorInvitation(hash), value: JSON.stringify(inv), ttlMs };
  }

  /**
   * Replaces the account record when it is still `expected` (409 otherwise: changed meanwhile), with
   * further writes in the same step.
   */
  async update(
    expected: AccountRecord,
    next: AccountRecord,
    more: WriteOp[] = [],
    guards: Guard[] = [],
  ): Promise<void> {
    const key = storeKeys.operatorAccount(next.id);
    const done = await this.store.atomic(
      [{ op: 'set', key, value: JSON.stringify(next) }, ...more],
      [{ key, equals: JSON.stringify(expected) }, ...guards],
    );
    if (!done.ok) throw AppError.conflict('The account changed meanwhile: try again');
  }

  /** A new invitation for the account (the previous one is dropped). */
  async reinvite(
    expected: AccountRecord,
    next: AccountRecord,
    hash: string,
    inv: InvitationRecord,
    nowMs: number,
  ): Promise<void> {
    const drop: WriteOp[] = expected.invitationHash
      ? [{ op: 'del', key: storeKeys.operatorInvitation(expected.invitationHash) }]
      : [];
    await this.update(expected, next, [...drop, this.invitationWrite(hash, inv, nowMs)]);
  }

  async findInvitation(hash: string): Promise<InvitationRecord | null> {
    const raw = await this.store.get(storeKeys.operatorInvitation(hash));
    return raw ? (JSON.parse(raw) as InvitationRecord) : null;
  }

  invitationDelete(hash: string): WriteOp {
    return { op: 'del', key: storeKeys.operatorInvitation(hash) };
  }

  invitationGuard(hash: string): Guard {
    return { key: storeKeys.operatorInvitation(hash), present: true };
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    const raw = await this.store.get(storeKeys.operatorToken(hash));
    return raw ? (JSON.parse(raw) as TokenRecord) : null;
  }

  async addToken(rec: TokenRecord, hash: string, accountGuard: AccountRecord): Promise<void> {
    const done = await this.store.atomic(
      [
        { op: 'set', key: storeKeys.operatorToken(hash), value: JSON.stringify(rec) },
        {
          op: 'hset',
          key: storeKeys.operatorTokens(rec.accountId),
          fields: { [rec.id]: JSON.stringify({ name: rec.name, createdOn: rec.createdOn, hash }) },
        },
      ],
      [{ key: storeKeys.operatorAccount(rec.accountId), equals: JSON.stringify(accountGuard) }],
    );
    if (!done.ok) throw AppError.conflict('The account changed meanwhile: try again');
  }

  async listTokens(accountId: string): Promise<Array<{ id: string; name: string; createdOn: string }>> {
    const all = await this.store.hgetall(storeKeys.operatorTokens(accountId));
    return Object.entries(all)
      .map(([id, raw]) => {
        const { name, createdOn } = JSON.parse(raw) as { name: string; createdOn: string };
        return { id, name, createdOn };
      })
      .sort((a, b) => a.createdOn.localeCompare(b.createdOn));
  }

  /** Revokes a token at once; false when the account has no such token. */
  async removeToken(accountId: string, tokenId: string): Promise<boolean> {
    const raw = await this.store.hget(storeKeys.operatorTokens(accountId), tokenId);
    if (!raw) return false;
    const { hash } = JSON.parse(raw) as { hash: string };
    await this.store.atomic([
      { op: 'del', key: storeKeys.operatorToken(hash) },
      { op: 'hdel', key: storeKeys.operatorTokens(accountId), fields: [tokenId] },
    ]);
    return true;
  }
}
