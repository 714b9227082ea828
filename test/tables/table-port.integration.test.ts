import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKeys, type Store } from '../../src/store/index.js';
import { AppError } from '../../src/platform/index.js';
import { normaliseIsoDate } from '../../src/tables/iso-date.js';
import { describeEachStore } from '../helpers/test-stores.js';
import { tablesFixture, uniqueTable, type TablesFixture } from './tables-fixture.js';

const failure = async (p: Promise<unknown>): Promise<AppError> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
};

describeEachStore('the TablePort (agent table node)', 'api', (factory) => {
  let store: Store;
  let f: TablesFixture;
  let streamId: string;
  const table = uniqueTable('orders');

  beforeAll(async () => {
    store = await factory.make();
    f = tablesFixture(store);
    streamId = (await f.writer()).streamId;
    await f.define(table, {
      columns: [
        { name: 'ref', type: 'string', required: true, unique: true },
        { name: 'qty', type: 'number', default: 1 },
        { name: 'card', type: 'string', encrypted: true },
        { name: 'due', type: 'date' },
      ],
      access: { [streamId]: { read: false, write: true } },
    });
  });
  afterAll(() => store.close());

  it('when the agent inserts a valid record, then it gets the stored record with system members', async () => {
    // a card value no id, timestamp or ciphertext of the stored row can contain by chance ('4111'
    // alone appears in a millisecond timestamp now and then)
    const card = '4111 1111 1111 1111';
    const r = await f.component.tables.insert({ streamId, table, record: { ref: 'A-1', card } });
    expect(r).toMatchObject({ ref: 'A-1', qty: 1, card, Created_By: streamId });
    expect(String(r.sys_Id)).toMatch(/^sys-/);
    expect(await store.get(storeKeys.tableRow(table, String(r.sys_Id)))).not.toContain(card);
  });

  it('when the agent passes a Date object for a date column, then it is stored as UTC ISO', async () => {
    const r = await f.component.tables.insert({
      streamId,
      table,
      record: { ref: 'D-1', due: new Date(Date.UTC(2024, 4, 1, 9)) },
    });
    expect(r.due).toBe('2024-05-01T09:00:00.000Z');
  });

  it('when the record is invalid, then a 400 AppError with record.<col> paths', async () => {
    const e = await failure(f.component.tables.insert({ streamId, table, record: { qty: 'two', extra: 1 } }));
    expect(e.status).toBe(400);
    expect(e.details.map((d) => d.path)).toEqual(['record.extra', 'record.ref', 'record.qty']);
  });

  it('when the value of a unique column is taken, then 409', async () => {
    await f.component.tables.insert({ streamId, table, record: { ref: 'B-1' } });
    const e = await failure(f.component.tables.insert({ streamId, table, record: { ref: 'B-1' } }));
    expect(e.status).toBe(409);
    expect(e.details[0]?.path).toBe('record.ref');
  });

  it('when an insert is repeated with the same idempotency key, then it answers the first row, in clear, and writes nothing', async () => {
    const key = 'call-1\u00001\u0000main.save';
    const first = await f.component.tables.insert({
      streamId,
      table,
      record: { ref: 'I-1', card: '5500 0000 0000 0004' },
      idempotencyKey: key,
    });
    const rows = await store.zcard(storeKeys.tableRows(table));
    // the repeat: the same row back, although its unique value is taken (by that row)
    const again = await f.component.tables.insert({
      streamId,
      table,
      record: { ref: 'I-1', card: '5500 0000 0000 0004' },
      idempotencyKey: key,
    });
    expect(again).toEqual(first);
    expect(await store.zcard(storeKeys.tableRows(table))).toBe(rows);
    // a repeat that now fills the record otherwise still finds the first row
    expect(
      (await f.component.tables.insert({ streamId, table, record: { ref: 'I-2' }, idempotencyKey: key }))
        .sys_Id,
    ).toBe(first.sys_Id);
    expect(await store.zcard(storeKeys.tableRows(table))).toBe(rows);
    // another key is another insert (refused here by the unique column); no key, the same
    expect(
      (
        await failure(
          f.component.tables.insert({ streamId, table, record: { ref: 'I-1' }, idempotencyKey: `${key}#2` }),
        )
      ).status,
    ).toBe(409);
    expect(
      (await failure(f.component.tables.insert({ streamId, table, record: { ref: 'I-1' } }))).status,
    ).toBe(409);
    expect(
      (
        await f.component.tables.insert({
          streamId,
          table,
          record: { ref: 'I-3' },
          idempotencyKey: `${key}#2`,
        })
      ).sys_Id,
    ).not.toBe(first.sys_Id);
    expect(await store.zcard(storeKeys.tableRows(table))).toBe(rows + 1);
  });

  it('when two apps insert with the same idempotency key, then each gets its own row', async () => {
    const other = (await f.writer()).streamId;
    const shared = uniqueTable('shared');
    await f.define(shared, {
      columns: [{ name: 'ref', type: 'string' }],
      access: { [streamId]: { read: false, write: true }, [other]: { read: false, write: true } },
    });
    const a = await f.component.tables.insert({
      streamId,
      table: shared,
      record: { ref: 'x' },
      idempotencyKey: 'k',
    });
    const b = await f.component.tables.insert({
      streamId: other,
      table: shared,
      record: { ref: 'x' },
      idempotencyKey: 'k',
    });
    expect(a.sys_Id).not.toBe(b.sys_Id);
    expect(await store.zcard(storeKeys.tableRows(shared))).toBe(2);
  });

  it('when the app has no write access or the table is unknown, then 403 or 404', async () => {
    const other = (await f.writer()).streamId;
    expect(
      (await failure(f.component.tables.insert({ streamId: other, table, record: { ref: 'C' } }))).status,
    ).toBe(403);
    expect(
      (
        await failure(
          f.component.tables.insert({ streamId, table: uniqueTable('nope'), record: { ref: 'C' } }),
        )
      ).status,
    ).toBe(404);
  });
});

describe('ISO 8601 date normalisation', () => {
  it('when a date or date-time is valid, then it is normalised to UTC', () => {
    expect(normaliseIsoDate('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(normaliseIsoDate('2024-05-01T10:00')).toBe('2024-05-01T10:00:00.000Z');
    expect(normaliseIsoDate('2024-05-01T10:00:00.123456Z')).toBe('2024-05-01T10:00:00.123Z');
    expect(normaliseIsoDate('2024-05-01T01:00:00+0230')).toBe('2024-04-30T22:30:00.000Z');
    expect(normaliseIsoDate('2024-12-31T23:00:00-05')).toBe('2025-01-01T04:00:00.000Z');
  });

  it('when the value is not an ISO 8601 date, then null', () => {
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-04-31',
      '2024-05-01T24:00',
      '2024-05-01T10:60',
      '01/05/2024',
      '2024-5-1',
      '',
      'now',
      '2024-05-01T10:00+25:00',
    ]) {
      expect(normaliseIsoDate(bad), bad).toBeNull();
    }
  });
});
