/** The filters of the calls list (caller, UTC days, outcome, errors, turns); applied through the URL. */
import { useState } from 'preact/hooks';
import { CALL_OUTCOMES, type CallFilters } from '../../api/client.js';

export const FILTER_KEYS = ['from', 'dateFrom', 'dateTo', 'outcome', 'hasError', 'minTurns'] as const;

/** The filters the URL's query holds (unknown values dropped). */
export function filtersOf(query: Record<string, string | undefined>): CallFilters {
  const f: CallFilters = {};
  if (query.from) f.from = query.from;
  if (query.dateFrom && /^\d{4}-\d{2}-\d{2}$/.test(query.dateFrom)) f.dateFrom = query.dateFrom;
  if (query.dateTo && /^\d{4}-\d{2}-\d{2}$/.test(query.dateTo)) f.dateTo = query.dateTo;
  if (CALL_OUTCOMES.includes(query.outcome as CallFilters['outcome'] & string))
    f.outcome = query.outcome as CallFilters['outcome'];
  if (query.hasError === 'true' || query.hasError === 'false') f.hasError = query.hasError;
  if (query.minTurns && /^\d{1,6}$/.test(query.minTurns)) f.minTurns = query.minTurns;
  return f;
}

const OUTCOME_LABEL: Record<string, string> = {
  live: 'Live (not ended)',
  completed: 'Completed',
  transferred: 'Transferred',
  hungup: 'Hung up',
  error: 'Ended by an error',
};

export function CallFiltersForm({
  initial,
  onApply,
}: {
  initial: CallFilters;
  onApply: (f: CallFilters) => void;
}) {
  const [f, setF] = useState<CallFilters>(initial);
  const set = (key: keyof CallFilters, value: string) => setF({ ...f, [key]: value || undefined });
  return (
    <form
      class="card filters"
      aria-label="Call filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(f);
      }}
    >
      <div class="row">
        <div class="field">
          <label for="c-from">Caller (from)</label>
          <input
            id="c-from"
            value={f.from ?? ''}
            onInput={(e) => set('from', e.currentTarget.value.trim())}
          />
        </div>
        <div class="field">
          <label for="c-dateFrom">Started from (UTC day)</label>
          <input
            id="c-dateFrom"
            type="date"
            value={f.dateFrom ?? ''}
            onInput={(e) => set('dateFrom', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="c-dateTo">Started until (UTC day)</label>
          <input
            id="c-dateTo"
            type="date"
            value={f.dateTo ?? ''}
            onInput={(e) => set('dateTo', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="c-outcome">Outcome</label>
          <select
            id="c-outcome"
            value={f.outcome ?? ''}
            onChange={(e) => set('outcome', e.currentTarget.value)}
          >
            <option value="">Any</option>
            {CALL_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {OUTCOME_LABEL[o]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="c-hasError">Errors</label>
          <select
            id="c-hasError"
            value={f.hasError ?? ''}
            onChange={(e) => set('hasError', e.currentTarget.value)}
          >
            <option value="">Any</option>
            <option value="true">With an error</option>
            <option value="false">Without errors</option>
          </select>
        </div>
        <div class="field">
          <label for="c-minTurns">At least turns</label>
          <input
            id="c-minTurns"
            type="number"
            min={0}
            inputMode="numeric"
            value={f.minTurns ?? ''}
            onInput={(e) => set('minTurns', e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary">
          Filter
        </button>
      </div>
    </form>
  );
}
