import type { MiddlewareHandler } from 'hono';
import { AuditActionSchema, isScopeKey } from '../core';
import { InputError } from '../core/errors';

const MAX_VALUE_LENGTH = 1024;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Parameters whose values name one thing: each must be well formed when given. */
const CHECKS: Record<string, (value: string) => string | undefined> = {
  scope: (v) => (isScopeKey(v) ? undefined : 'must be a scope key: global, apps/{app} or users/{app}/{user}'),
  action: (v) => (AuditActionSchema.safeParse(v).success ? undefined : `must be one of ${AuditActionSchema.options.join(', ')}`),
};

/** What is wrong with a request's query string, or undefined when every parameter is usable. */
export function queryProblem(search: string): string | undefined {
  if (!search) return undefined;
  const seen = new Set<string>();
  for (const part of search.split('&')) {
    if (!part) continue;
    const at = part.indexOf('=');
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent((at < 0 ? part : part.slice(0, at)).replaceAll('+', ' '));
      value = at < 0 ? '' : decodeURIComponent(part.slice(at + 1).replaceAll('+', ' '));
    } catch {
      return `malformed percent-encoding in the query: ${JSON.stringify(part.slice(0, 100))}`;
    }
    if (CONTROL.test(name) || CONTROL.test(value)) return `?${name}: control characters are not allowed`;
    if (value.length > MAX_VALUE_LENGTH) return `?${name}: longer than ${MAX_VALUE_LENGTH} characters`;
    const check = CHECKS[name];
    if (!check) continue;
    if (seen.has(name)) return `?${name} is given more than once`;
    seen.add(name);
    const problem = value.trim() === '' ? undefined : check(value.trim());
    if (problem) return `?${name}=${JSON.stringify(value.slice(0, 100))} ${problem}`;
  }
  return undefined;
}

/** Every request: a malformed query answers 400 before any route reads it. */
export function wellFormedQuery(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const problem = q < 0 ? undefined : queryProblem(url.slice(q + 1).split('#')[0]);
    if (problem) throw new InputError(problem);
    await next();
  };
}
