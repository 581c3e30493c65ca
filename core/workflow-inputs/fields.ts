/**
 * Plain field checks for workflow inputs. Workflow code runs them on every start, so
 * they are small functions (no schema library to construct per workflow instance).
 * Each check appends `path: what is wrong` to `problems` and returns the value when it
 * has the expected type.
 */
export type Problems = string[];
type Obj = Record<string, unknown>;

/** How a value looks, for messages: "missing", "null", "a number (NaN)", "an array"… */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v === '') return 'an empty string';
  if (typeof v === 'number' && !Number.isFinite(v)) return `a number (${String(v)})`;
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function wrong(problems: Problems, path: string, expected: string, v: unknown): undefined {
  problems.push(`${path}: expected ${expected}, got ${describeValue(v)}`);
  return undefined;
}

export function objectField(problems: Problems, path: string, v: unknown): Obj | undefined {
  return isObject(v) ? v : wrong(problems, path, 'an object', v);
}

export function stringField(problems: Problems, path: string, v: unknown, opts: { optional?: boolean; maxLength?: number } = {}): string | undefined {
  if (v === undefined && opts.optional) return undefined;
  if (typeof v !== 'string' || v.length === 0) return wrong(problems, path, 'a non-empty string', v);
  if (opts.maxLength !== undefined && v.length > opts.maxLength) return wrong(problems, path, `at most ${opts.maxLength} characters`, `${v.length} characters`);
  return v;
}

export function numberField(problems: Problems, path: string, v: unknown, opts: { optional?: boolean; integer?: boolean; min?: number; max?: number } = {}): number | undefined {
  if (v === undefined && opts.optional) return undefined;
  const kind = opts.integer ? 'an integer' : 'a finite number';
  const bound = [opts.min === undefined ? '' : ` >= ${opts.min}`, opts.max === undefined ? '' : ` <= ${opts.max}`].filter(Boolean).join(' and');
  if (typeof v !== 'number' || !Number.isFinite(v) || (opts.integer && !Number.isInteger(v))) return wrong(problems, path, `${kind}${bound}`, v);
  if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max)) {
    problems.push(`${path}: expected ${kind}${bound}, got ${v}`);
    return undefined;
  }
  return v;
}

export function oneOfField<T extends string>(problems: Problems, path: string, v: unknown, allowed: readonly T[], opts: { optional?: boolean } = {}): T | undefined {
  if (v === undefined && opts.optional) return undefined;
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : wrong(problems, path, `one of ${allowed.join(', ')}`, v);
}

export function stringArrayField(problems: Problems, path: string, v: unknown, opts: { optional?: boolean } = {}): string[] | undefined {
  if (v === undefined && opts.optional) return undefined;
  if (!Array.isArray(v)) return wrong(problems, path, 'an array of strings', v);
  const bad = v.findIndex((s) => typeof s !== 'string' || s.length === 0);
  if (bad >= 0) return wrong(problems, `${path}[${bad}]`, 'a non-empty string', v[bad]);
  return v as string[];
}
