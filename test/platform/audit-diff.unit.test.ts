/** The audit trail's diff (secrets redacted) and the role check, as pure functions. */
import { describe, expect, it } from 'vitest';
import { assertRole, auditDiff, neededRole, roleOn, AppError } from '../../src/platform/index.js';

describe('audit diff', () => {
  it('when members change, are added or removed, then each is one change with its values, and equal ones are left out', () => {
    const { changes, truncated } = auditDiff(
      { a: 1, b: { c: 'x', d: [1, 2] }, gone: true },
      { a: 2, b: { c: 'x', d: [1, 3] }, added: 'y' },
    );
    expect(changes).toEqual([
      { path: 'a', before: 1, after: 2 },
      { path: 'b.d.1', before: 2, after: 3 },
      { path: 'gone', before: true },
      { path: 'added', after: 'y' },
    ]);
    expect(truncated).toBe(false);
  });

  it('when a secret-named member changes, then the diff says so without either value, however deep it is', () => {
    const { changes } = auditDiff(
      { channel: { clientSecret: 'old-secret' }, pin: '1234', nested: [{ apiKey: 'k1' }] },
      { channel: { clientSecret: 'new-secret' }, pin: '9999', nested: [{ apiKey: 'k2' }] },
    );
    expect(changes).toEqual([
      { path: 'channel.clientSecret', before: '[redacted]', after: '[redacted]' },
      { path: 'pin', before: '[redacted]', after: '[redacted]' },
      { path: 'nested.0.apiKey', before: '[redacted]', after: '[redacted]' },
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/old-secret|new-secret|1234|9999|k1|k2/);
  });

  it('when an item is new or deleted, then every leaf is listed on one side; past 200 changes the list is cut and says so', () => {
    expect(auditDiff(undefined, { a: 1 }).changes).toEqual([{ path: 'a', after: 1 }]);
    expect(auditDiff({ a: 1 }, undefined).changes).toEqual([{ path: 'a', before: 1 }]);
    const big = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
    const cut = auditDiff({}, big);
    expect(cut.changes).toHaveLength(200);
    expect(cut.truncated).toBe(true);
  });
});

describe('roles', () => {
  const grants = [{ role: 'viewer' as const }, { role: 'editor' as const, app: 'st-a' }];

  it('when an account holds roles on the service and on one app, then its role on each app is the higher one', () => {
    expect(roleOn(grants, 'st-a')).toBe('editor');
    expect(roleOn(grants, 'st-b')).toBe('viewer');
    expect(roleOn(grants)).toBe('viewer');
    expect(roleOn([{ role: 'owner', app: 'st-a' }])).toBeNull();
  });

  it('when a route declares no role, then a read needs viewer and a change editor', () => {
    expect(neededRole(undefined, 'GET')).toBe('viewer');
    expect(neededRole(undefined, 'delete')).toBe('editor');
    expect(neededRole('owner', 'GET')).toBe('owner');
  });

  it('when the role is missing, then the refusal is a 403 role_required naming it; an app-only grant reads the list of apps but changes nothing outside its app', () => {
    expect(() => assertRole(grants, 'editor', { app: 'st-a', read: false })).not.toThrow();
    let err: unknown;
    try {
      assertRole(grants, 'editor', { app: 'st-b', read: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(403);
    expect((err as AppError).toBody().errors[0]).toMatchObject({
      code: 'role_required',
      path: 'role.editor',
    });
    const appOnly = [{ role: 'editor' as const, app: 'st-a' }];
    expect(() => assertRole(appOnly, 'viewer', { read: true })).not.toThrow();
    expect(() => assertRole(appOnly, 'editor', { read: false })).toThrow(/editor role on the whole service/);
  });
});
