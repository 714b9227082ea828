/**
 * A form generated from a JSON Schema (the one the service validates with): objects as fieldsets,
 * booleans as checkboxes, enums as pickers (with what each choice means, from `enumDescriptions`),
 * strings and numbers as inputs with their limits, arrays of objects as rows, `oneOf` variants as a
 * picker plus the chosen variant's fields, extra members (`additionalProperties`) as name/value rows.
 * Every control has a label, its help text and default, and its error inline.
 */
import { useState } from 'preact/hooks';
import { getAt, humanize, keyOf, typeOf, type Json, type JsonSchema, type Path } from './json-value.js';

export interface FormProps {
  schema: JsonSchema;
  value: Json | undefined;
  onChange: (path: Path, next: Json | undefined) => void;
  errors: Map<string, string>;
}

const idOf = (path: Path): string =>
  `f-${path
    .map(String)
    .join('-')
    .replace(/[^A-Za-z0-9_-]/g, '_')}`;
const withStop = (s: string): string => (/[.!?]$/.test(s) ? s : `${s}.`);
const shown = (v: Json | undefined): string =>
  v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

function Help({ schema, path, error }: { schema: JsonSchema; path: Path; error?: string }) {
  const id = idOf(path);
  return (
    <>
      {schema.description || schema.default !== undefined ? (
        <p class="help" id={`${id}-help`}>
          {schema.description}
          {schema.default !== undefined && typeof schema.default !== 'object' ? (
            <span class="default"> Default: {withStop(shown(schema.default) || '(empty)')}</span>
          ) : null}
        </p>
      ) : null}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

const describedBy = (schema: JsonSchema, path: Path, error?: string): string | undefined => {
  const id = idOf(path);
  const ids = [
    schema.description || schema.default !== undefined ? `${id}-help` : '',
    error ? `${id}-error` : '',
  ].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
};

function Leaf({
  name,
  schema,
  path,
  props,
}: {
  name: string;
  schema: JsonSchema;
  path: Path;
  props: FormProps;
}) {
  const id = idOf(path);
  const value = getAt(props.value, path);
  const error = props.errors.get(keyOf(path));
  const common = {
    id,
    'aria-describedby': describedBy(schema, path, error),
    'aria-invalid': error ? true : undefined,
  } as const;
  const type = typeOf(schema);
  if (schema.enum) {
    const index = schema.enum.findIndex((e) => e === (value ?? schema.default));
    const meaning = index >= 0 ? schema.enumDescriptions?.[index] : undefined;
    return (
      <div class="field">
        <label for={id}>{name}</label>
        <select
          {...common}
          value={shown(value ?? schema.default)}
          onChange={(e) => props.onChange(path, e.currentTarget.value)}
        >
          {schema.enum.map((opt) => (
            <option key={shown(opt)} value={shown(opt)}>
              {shown(opt)}
            </option>
          ))}
        </select>
        <Help schema={schema} path={path} error={error} />
        {meaning ? (
          <p class="choice-meaning" data-testid={`${id}-meaning`}>
            <strong>{shown(value ?? schema.default)}</strong>: {meaning}
          </p>
        ) : null}
      </div>
    );
  }
  if (type === 'boolean') {
    return (
      <div class="field check">
        <input
          {...common}
          type="checkbox"
          checked={(value ?? schema.default) === true}
          onChange={(e) => props.onChange(path, e.currentTarget.checked)}
        />
        <label for={id}>{name}</label>
        <Help schema={schema} path={path} error={error} />
      </div>
    );
  }
  if (type === 'number' || type === 'integer') {
    return (
      <div class="field narrow">
        <label for={id}>{name}</label>
        <input
          {...common}
          type="number"
          inputMode={type === 'integer' ? 'numeric' : 'decimal'}
          min={schema.minimum}
          max={schema.maximum}
          step={type === 'integer' ? 1 : 'any'}
          placeholder={schema.default !== undefined ? shown(schema.default) : undefined}
          value={typeof value === 'number' ? String(value) : ''}
          onInput={(e) => {
            const raw = e.currentTarget.value;
            props.onChange(path, raw === '' ? undefined : Number(raw));
          }}
        />
        <Help schema={schema} path={path} error={error} />
      </div>
    );
  }
  const long = (schema.maxLength ?? 0) >= 1000;
  const onInput = (raw: string) =>
    props.onChange(path, raw === '' && schema.default === undefined ? undefined : raw);
  return (
    <div class={long ? 'field wide' : 'field'}>
      <label for={id}>{name}</label>
      {long ? (
        <textarea
          {...common}
          rows={2}
          maxLength={schema.maxLength}
          value={shown(value)}
          placeholder={shown(schema.default)}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      ) : (
        <input
          {...common}
          type="text"
          maxLength={schema.maxLength}
          value={shown(value)}
          placeholder={shown(schema.default)}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
      <Help schema={schema} path={path} error={error} />
    </div>
  );
}

function Variants({
  name,
  schema,
  path,
  props,
}: {
  name: string;
  schema: JsonSchema;
  path: Path;
  props: FormProps;
}) {
  const variants = schema.oneOf ?? [];
  const discriminator =
    Object.keys(variants[0]?.properties ?? {}).find((k) =>
      variants.every((v) => v.properties?.[k]?.const !== undefined),
    ) ?? 'type';
  const current = (getAt(props.value, path) ?? schema.default) as Record<string, Json> | undefined;
  const chosen =
    variants.find((v) => v.properties?.[discriminator]?.const === current?.[discriminator]) ?? variants[0];
  const id = idOf([...path, discriminator]);
  const error = props.errors.get(keyOf(path));
  return (
    <fieldset class="group">
      <legend>{name}</legend>
      <Help schema={schema} path={path} error={error} />
      <div class="field">
        <label for={id}>{humanize(discriminator)}</label>
        <select
          id={id}
          value={shown(chosen?.properties?.[discriminator]?.const)}
          onChange={(e) => props.onChange(path, { [discriminator]: e.currentTarget.value })}
        >
          {variants.map((v) => {
            const c = shown(v.properties?.[discriminator]?.const);
            return (
              <option key={c} value={c}>
                {c}
              </option>
            );
          })}
        </select>
      </div>
      {Object.entries(chosen?.properties ?? {})
        .filter(([k]) => k !== discriminator)
        .map(([k, s]) => (
          <Leaf key={k} name={humanize(k)} schema={s} path={[...path, k]} props={props} />
        ))}
    </fieldset>
  );
}

function Rows({
  name,
  schema,
  path,
  props,
}: {
  name: string;
  schema: JsonSchema;
  path: Path;
  props: FormProps;
}) {
  const rows = (getAt(props.value, path) as Json[] | undefined) ?? [];
  const item = schema.items ?? {};
  const max = schema.maxItems ?? Infinity;
  return (
    <fieldset class="group">
      <legend>{name}</legend>
      <Help schema={schema} path={path} error={props.errors.get(keyOf(path))} />
      {rows.length === 0 ? <p class="muted small">None.</p> : null}
      {rows.map((_, i) => (
        <div class="array-row" key={i}>
          {Object.entries(item.properties ?? {}).map(([k, s]) => (
            <Leaf key={k} name={`${humanize(k)} ${i + 1}`} schema={s} path={[...path, i, k]} props={props} />
          ))}
          <button
            type="button"
            class="subtle"
            onClick={() => props.onChange([...path, i], undefined)}
            aria-label={`Remove ${name} ${i + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        disabled={rows.length >= max}
        onClick={() =>
          props.onChange(
            [...path, rows.length],
            Object.fromEntries(Object.keys(item.properties ?? {}).map((k) => [k, ''])),
          )
        }
      >
        Add {name.toLowerCase().replace(/s$/, '')}
      </button>
    </fieldset>
  );
}

function Extras({
  name,
  known,
  path,
  props,
}: {
  name: string;
  known: string[];
  path: Path;
  props: FormProps;
}) {
  const obj = (getAt(props.value, path) ?? {}) as Record<string, Json>;
  const extra = Object.keys(obj).filter((k) => !known.includes(k));
  const [draft, setDraft] = useState('');
  return (
    <div class="extras">
      <p class="small">Other {name} (name and value):</p>
      {extra.map((k) => (
        <div class="array-row" key={k}>
          <code>{k}</code>
          <Leaf
            name={`Value of ${k}`}
            schema={{ type: 'string', maxLength: 200 }}
            path={[...path, k]}
            props={props}
          />
          <button
            type="button"
            class="subtle"
            onClick={() => props.onChange([...path, k], undefined)}
            aria-label={`Remove ${k}`}
          >
            Remove
          </button>
        </div>
      ))}
      <div class="row">
        <label for={`${idOf(path)}-extra`}>New property name</label>
        <input
          id={`${idOf(path)}-extra`}
          pattern="[A-Za-z_][A-Za-z0-9_.\-]*"
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
        <button
          type="button"
          onClick={() => {
            const k = draft.trim();
            if (/^[A-Za-z_][\w.-]{0,63}$/.test(k) && !(k in obj)) props.onChange([...path, k], '');
            setDraft('');
          }}
        >
          Add property
        </button>
      </div>
    </div>
  );
}

export function SchemaFields({
  name,
  schema,
  path,
  props,
}: {
  name: string;
  schema: JsonSchema;
  path: Path;
  props: FormProps;
}) {
  if (schema.oneOf && !schema.properties)
    return <Variants name={name} schema={schema} path={path} props={props} />;
  const type = typeOf(schema);
  if (type === 'array' && typeOf(schema.items ?? {}) === 'object')
    return <Rows name={name} schema={schema} path={path} props={props} />;
  if (type === 'object' && schema.properties) {
    // members of an open property bag (VoiceXML properties) are named as the property itself
    const bag = typeof schema.additionalProperties === 'object';
    const fields = Object.entries(schema.properties).map(([k, s]) => (
      <SchemaFields key={k} name={bag ? k : humanize(k)} schema={s} path={[...path, k]} props={props} />
    ));
    const extras = bag ? (
      <Extras name={name.toLowerCase()} known={Object.keys(schema.properties)} path={path} props={props} />
    ) : null;
    if (path.length === 0) return <>{fields}</>;
    return (
      <fieldset class="group">
        <legend>{name}</legend>
        <Help schema={schema} path={path} error={props.errors.get(keyOf(path))} />
        {fields}
        {extras}
      </fieldset>
    );
  }
  return <Leaf name={name} schema={schema} path={path} props={props} />;
}
