import { z } from 'zod';
import { SCOPE_KEY_PATTERN } from '../skills/segment-patterns';

/** Who shares a skill library: everyone (none), one app, or one user of one app. */
export const ScopeModeSchema = z.enum(['none', 'app', 'user']);
export type ScopeMode = z.infer<typeof ScopeModeSchema>;

export const ScopeSchema = z
  .object({
    mode: ScopeModeSchema,
    app: z.string().min(1).max(512).optional(),
    user: z.string().min(1).max(512).optional(),
  })
  .superRefine((s, ctx) => {
    if (s.mode !== 'none' && !s.app) ctx.addIssue({ code: 'custom', path: ['app'], message: `scope mode "${s.mode}" needs an app` });
    if (s.mode === 'user' && !s.user) ctx.addIssue({ code: 'custom', path: ['user'], message: 'scope mode "user" needs a user' });
  });
export type Scope = z.infer<typeof ScopeSchema>;

// An id segment is kept verbatim when safe and not starting with `id-`, else becomes `id-{16 hex of sha256(id)}` (core/skills/scope-key idSegment).

export const ScopeKeySchema = z
  .string()
  .regex(
    SCOPE_KEY_PATTERN,
    'must be a scope key: global, apps/{app} or users/{app}/{user}, each id [A-Za-z0-9][A-Za-z0-9._-]{0,63} not starting with "id-", or id-{16 hex} for any other id',
  )
  .describe(
    'Scope key: global, apps/{app} or users/{app}/{user}; an app or user id that is not [A-Za-z0-9][A-Za-z0-9._-]{0,63}, or that starts with "id-", is written id-{first 16 hex of sha256(id)}.',
  );
