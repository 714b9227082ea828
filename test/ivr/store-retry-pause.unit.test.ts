import { describe, expect, it } from 'vitest';
import {
  firstFaultAt,
  storeRetryPause,
  STORE_RETRY_FIRST_PAUSE_MS,
  STORE_RETRY_MAX_PAUSE_MS,
} from '../../src/ivr/store-retry.js';

const BUDGET = 12_000;
const low = () => 0;
const high = () => 0.999_999;

describe('store retry pauses', () => {
  it('when retries follow one another, then the pause range doubles from the first pause up to the cap, never below half of it', () => {
    const floors = [0, 1, 2, 3, 4, 5, 6].map((r) => storeRetryPause(r, 0, BUDGET, low)!);
    const ceilings = [0, 1, 2, 3, 4, 5, 6].map((r) => storeRetryPause(r, 0, BUDGET, high)!);
    expect(ceilings[0]).toBe(STORE_RETRY_FIRST_PAUSE_MS);
    expect(floors[0]).toBe(STORE_RETRY_FIRST_PAUSE_MS / 2);
    for (let i = 1; i < ceilings.length; i++) {
      expect(ceilings[i]).toBe(Math.min(STORE_RETRY_MAX_PAUSE_MS, ceilings[i - 1]! * 2));
      expect(floors[i]).toBe(ceilings[i]! / 2);
    }
    expect(ceilings.at(-1)).toBe(STORE_RETRY_MAX_PAUSE_MS);
  });

  it('when the jitter varies, then pauses of one retry spread over the upper half of its range', () => {
    const pauses = Array.from({ length: 200 }, () => storeRetryPause(3, 0, BUDGET)!);
    expect(Math.min(...pauses)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(2_000);
    expect(new Set(pauses).size).toBeGreaterThan(20);
  });

  it('when little of the budget is left, then the pause is cut to it; when none is left, then null (the error document)', () => {
    expect(storeRetryPause(5, BUDGET - 300, BUDGET, high)).toBe(300);
    expect(storeRetryPause(0, BUDGET, BUDGET)).toBeNull();
    expect(storeRetryPause(0, BUDGET + 1, BUDGET)).toBeNull();
    expect(storeRetryPause(0, 0, 0)).toBeNull();
  });

  it('when the pauses of a whole outage are added up, then they fill the budget with a few retries, not a fixed count', () => {
    const count = (budget: number) => {
      let elapsed = 0;
      let retry = 0;
      for (
        let pause = storeRetryPause(0, 0, budget, high);
        pause !== null;
        pause = storeRetryPause(++retry, elapsed, budget, high)
      )
        elapsed += pause;
      return { retry, elapsed };
    };
    expect(count(BUDGET)).toEqual({ retry: 9, elapsed: BUDGET });
    expect(count(3_000).retry).toBeLessThan(count(BUDGET).retry);
  });

  it("when a retry document brings the first fault's time back, then it counts from there; a first fault, a missing or a future time count from now", () => {
    expect(firstFaultAt(2, 1_000, 5_000)).toBe(1_000);
    expect(firstFaultAt(0, 1_000, 5_000)).toBe(5_000);
    expect(firstFaultAt(2, undefined, 5_000)).toBe(5_000);
    expect(firstFaultAt(2, 9_000, 5_000)).toBe(5_000);
  });
});
