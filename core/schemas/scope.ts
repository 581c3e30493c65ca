import { z } from 'zod';

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
