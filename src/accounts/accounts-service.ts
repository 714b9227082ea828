/**
 * Operator accounts. With the admin token (the bootstrap and break-glass credential) or as an owner,
 * an operator invites someone by email with their roles: the answer holds a console link carrying a
 * one-time token that expires (INVITATION_TTL, 72 hours). Following it, the invited operator sets a
 * password (stored only as its scrypt hash, password-hash.ts) and the account is active. An active
 * account signs in to the console with email and password (attempts limited per client address and
 * per account, like the admin token's), changes its password (which ends its other sessions), and
 * makes personal API tokens for scripts (`pat_…`, shown once, kept as a hash, listed, revocable).
 * An owner changes an account's roles or disables it: a disabled account's sessions and tokens are
 * refused at the next request, as every request reads the account.
 */
import {
  AppError,
  PERSONAL_TOKEN_PREFIX,
  createCredentialGuesses,
  hmacSha256,
  isoNow,
  newId,
  randomSecret,
  sha256,
  type AccountIdentity,
  type CredentialGuesses,
  type PersonalTokenLookup,
  type RateLimiterFactory,
} from '../platform/index.js';
import type { Store } from '../store/index.js';
import { AccountsRepository } from './accounts-repository.js';
import { DECOY_HASH, hashPassword, verifyPassword } from './password-hash.js';
import type { AccountRecord, AccountView, RoleGrantInput } from './accounts-schemas.js';

export const INVITATION_TTL_MS = 72 * 3600_000;
const INVITATION_PREFIX = 'inv_';

export interface AccountsServiceOptions {
  rateLimiters: RateLimiterFactory;
  /** Keys the binding of a console session to the password it was made with (the master key). */
  bindingKey: Buffer;
  /** Addresses whose wrong passwords are not limited (ADMIN_TRUSTED_NETWORKS). */
  trustedNetworks?: string[];
  /** The clock (tests move it past an invitation's expiry). */
  clock?: () => number;
  invitationTtlMs?: number;
  /** Password guesses (one is made without it). */
  guesses?: CredentialGuesses;
}

export const viewOf = (rec: AccountRecord): AccountView => ({
  id: rec.id,
  email: rec.email,
  grants: rec.grants,
  status: rec.status,
  createdOn: rec.createdOn,
  updatedOn: rec.updatedOn,
});

const identityOf = (rec: AccountRecord): AccountIdentity => ({
  accountId: rec.id,
  email: rec.email,
  grants: rec.grants,
});

export class AccountsService implements PersonalTokenLookup {
  private readonly repo: AccountsRepository;
  private readonly guesses: CredentialGuesses;
  private readonly now: () => number;

  constructor(
    store: Store,
    private readonly opts: AccountsServiceOptions,
  ) {
    this.repo = new AccountsRepository(store);
    this.now = opts.clock ?? Date.now;
    this.guesses =
      opts.guesses ??
      createCredentialGuesses({
        rateLimiters: opts.rateLimiters,
        credential: 'password',
        ...(opts.trustedNetworks ? { trustedNetworks: opts.trustedNetworks } : {}),
      });
  }

  async list(): Promise<AccountView[]> {
    return (await this.repo.list()).map(viewOf);
  }

  async get(accountId: string): Promise<AccountView> {
    return viewOf(await this.require(accountId));
  }

  private async require(accountId: string): Promise<AccountRecord> {
    const rec = await this.repo.find(accountId);
    if (!rec) throw AppError.notFound('No such account');
    return rec;
  }

  private newInvitation(): { token: string; hash: string; expiresAt: string } {
    const token = `${INVITATION_PREFIX}${randomSecret(32)}`;
    return {
      token,
      hash: sha256(token),
      expiresAt: new Date(this.now() + (this.opts.invitationTtlMs ?? INVITATION_TTL_MS)).toISOString(),
    };
  }

  /** Makes an invited account; the answer's token (and link) is shown once. */
  async invite(input: {
    email: string;
    grants: RoleGrantInput[];
  }): Promise<{ account: AccountView; token: string; expiresAt: string }> {
    const at = isoNow(new Date(this.now()));
    const id = newId('acct');
    const inv = this.newInvitation();
    const rec: AccountRecord = {
      id,
      email: input.email,
      grants: input.grants,
      status: 'invited',
      invitationHash: inv.hash,
      createdOn: at,
      updatedOn: at,
    };
    await this.repo.create(rec, inv.hash, { accountId: id, expiresAt: inv.expiresAt }, this.now());
    return { account: viewOf(rec), token: inv.token, expiresAt: inv.expiresAt };
  }

  /** A new invitation link for an account (a forgotten password is reset this way); the old link stops working. */
  async reinvite(accountId: string): Promise<{ account: AccountView; token: string; expiresAt: string }> {
    const rec = await this.require(accountId);
    if (rec.status === 'disabled') throw AppError.businessRule('The account is disabled: enable it first');
    const inv = this.newInvitation();
    const next: AccountRecord = { ...rec, invitationHash: inv.hash, updatedOn: isoNow(new Date(this.now())) };
    await this.repo.reinvite(rec, next, inv.hash, { accountId, expiresAt: inv.expiresAt }, this.now());
    return { account: viewOf(next), token: inv.token, expiresAt: inv.expiresAt };
  }

  /**
   * Sets the password of an invited account (or one reset by a new invitation) and uses the
   * invitation up. 410 `invitation_expired` past its expiry, 404 for an unknown or used one.
   */
  async acceptInvitation(token: string, password: string, clientIp: string): Promise<AccountView> {
    const hash = sha256(token);
    // an unknown invitation counts as a guess, as a wrong password does
    let inv: Awaited<ReturnType<AccountsRepository['findInvitation']>> = null;
    const known = await this.guesses.attemptSlow([clientIp], async () => {
      inv = await this.repo.findInvitation(hash);
      return inv !== null;
    });
    const found = inv as Awaited<ReturnType<AccountsRepository['findInvitation']>>;
    if (!known || !found)
      throw new AppError(404, 'invitation_unknown', 'This invitation link is unknown or was used already', [
        {
          msg: 'This invitation link is unknown or was used already',
          code: 'invitation_unknown',
          path: 'body.token',
        },
      ]);
    if (Date.parse(found.expiresAt) <= this.now()) {
      throw new AppError(
        410,
        'invitation_expired',
        'This invitation link has expired: ask an owner for a new one',
        [
          {
            msg: 'This invitation link has expired: ask an owner for a new one',
            code: 'invitation_expired',
            path: 'body.token',
          },
        ],
      );
    }
    const rec = await this.require(found.accountId);
    if (rec.status === 'disabled' || rec.invitationHash !== hash)
      throw AppError.notFound('This invitation link is unknown or was used already');
    const at = isoNow(new Date(this.now()));
    const { invitationHash: _used, ...rest } = rec;
    const next: AccountRecord = {
      ...rest,
      status: 'active',
      passwordHash: await hashPassword(password),
      passwordSetOn: at,
      updatedOn: at,
    };
    await this.repo.update(rec, next, [this.repo.invitationDelete(hash)], [this.repo.invitationGuard(hash)]);
    return viewOf(next);
  }

  /**
   * Checks an email and password (counted per client address and per account, refused with 429 past
   * the limits); answers the account and the binding its session keeps. 401 for a wrong pair, an
   * unknown email or an account that is not active alike.
   */
  async verifySignIn(
    email: string,
    password: string,
    clientIp: string,
  ): Promise<{ identity: AccountIdentity; binding: string }> {
    const address = email.trim().toLowerCase();
    let rec: AccountRecord | null = null;
    const right = await this.guesses.attemptSlow([clientIp, `account:${sha256(address)}`], async () => {
      rec = await this.repo.findByEmail(address);
      const stored = rec?.status === 'active' && rec.passwordHash ? rec.passwordHash : await DECOY_HASH;
      const ok = await verifyPassword(password, stored);
      return ok && rec?.status === 'active';
    });
    const found = rec as AccountRecord | null;
    if (!right || !found) throw AppError.unauthorized('Wrong email or password');
    return { identity: identityOf(found), binding: this.bindingOf(found) };
  }

  /** What a console session of the account keeps: an HMAC of the account and when its password was set. */
  private bindingOf(rec: AccountRecord): string {
    return hmacSha256(this.opts.bindingKey, `account-session:${rec.id}:${rec.passwordSetOn ?? ''}`);
  }

  /**
   * The account of a console session when it may still act: active, and its password unchanged since
   * the session was made; null otherwise (a disabled account's sessions are refused at once).
   */
  async sessionHolder(accountId: string, binding: string): Promise<AccountIdentity | null> {
    const rec = await this.repo.find(accountId);
    if (!rec || rec.status !== 'active') return null;
    return this.bindingOf(rec) === binding ? identityOf(rec) : null;
  }

  async changePassword(accountId: string, current: string, next: string, clientIp: string): Promise<void> {
    const rec = await this.require(accountId);
    const right = await this.guesses.attemptSlow(
      [clientIp, `account:${sha256(rec.email)}`],
      async () => rec.passwordHash !== undefined && verifyPassword(current, rec.passwordHash),
    );
    if (!right)
      throw new AppError(403, 'wrong_password', 'The current password is wrong', [
        { msg: 'The current password is wrong', code: 'wrong_password', path: 'body.currentPassword' },
      ]);
    const at = isoNow(new Date(this.now()));
    await this.repo.update(rec, {
      ...rec,
      passwordHash: await hashPassword(next),
      passwordSetOn: at,
      updatedOn: at,
    });
  }

  /** Changes an account's roles or disables (enables) it. */
  async update(
    accountId: string,
    change: { grants?: RoleGrantInput[]; disabled?: boolean },
  ): Promise<AccountView> {
    const rec = await this.require(accountId);
    let status = rec.status;
    if (change.disabled === true) status = 'disabled';
    else if (change.disabled === false && rec.status === 'disabled')
      status = rec.passwordHash ? 'active' : 'invited';
    const next: AccountRecord = {
      ...rec,
      ...(change.grants ? { grants: change.grants } : {}),
      status,
      updatedOn: isoNow(new Date(this.now())),
    };
    await this.repo.update(rec, next);
    return viewOf(next);
  }

  async findPersonalToken(
    token: string,
  ): Promise<(AccountIdentity & { tokenId: string; tokenName: string }) | null> {
    if (!token.startsWith(PERSONAL_TOKEN_PREFIX)) return null;
    const found = await this.repo.findToken(sha256(token));
    if (!found) return null;
    const rec = await this.repo.find(found.accountId);
    if (!rec || rec.status !== 'active') return null;
    return { ...identityOf(rec), tokenId: found.id, tokenName: found.name };
  }

  async createToken(
    accountId: string,
    name: string,
  ): Promise<{ id: string; name: string; createdOn: string; token: string }> {
    const rec = await this.require(accountId);
    if (rec.status !== 'active') throw AppError.businessRule('The account is not active');
    const token = `${PERSONAL_TOKEN_PREFIX}${randomSecret(32)}`;
    const made = { id: newId('pat'), accountId, name, createdOn: isoNow(new Date(this.now())) };
    await this.repo.addToken(made, sha256(token), rec);
    return { id: made.id, name, createdOn: made.createdOn, token };
  }

  listTokens(accountId: string): Promise<Array<{ id: string; name: string; createdOn: string }>> {
    return this.repo.listTokens(accountId);
  }

  async revokeToken(accountId: string, tokenId: string): Promise<void> {
    if (!(await this.repo.removeToken(accountId, tokenId))) throw AppError.notFound('No such token');
  }
}
