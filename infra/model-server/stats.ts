import type { FaultMode } from './faults';
import type { Role } from './roles';

export interface StatsSnapshot {
  /** Chat requests that passed validation (faulted ones included). */
  chatRequests: number;
  byRole: Record<Role, number>;
  /** Reviewer requests by `app/user/sessionId` from the prompt's `## Session` block. */
  bySession: Record<string, number>;
  /** Reflector requests by the current skill's name. */
  bySkill: Record<string, number>;
  /** Faults served, by mode. */
  faults: Record<FaultMode, number>;
  /** Requests answered with 4xx (bad JSON, bad shape, prompt contract violations). */
  rejected: number;
}

/** How many last prompts are kept (one per session or skill key, oldest dropped). */
const MAX_PROMPTS = 500;

export class Stats {
  private data = Stats.empty();
  private prompts = new Map<string, string>();

  /** The text of the last request for a key (`app/user/sessionId`, or a reflector's skill): what a test asserts the model was shown. */
  recordPrompt(key: string, text: string): void {
    this.prompts.delete(key);
    this.prompts.set(key, text);
    if (this.prompts.size > MAX_PROMPTS) this.prompts.delete(this.prompts.keys().next().value!);
  }

  lastPrompt(key: string): string | undefined {
    return this.prompts.get(key);
  }

  private static empty(): StatsSnapshot {
    return {
      chatRequests: 0,
      byRole: { reviewer: 0, reflector: 0, consolidator: 0, agent: 0, judge: 0, other: 0 },
      bySession: {},
      bySkill: {},
      faults: { malformed: 0, http500: 0, slow: 0 },
      rejected: 0,
    };
  }

  recordChat(role: Role, key: string | undefined, fault: FaultMode | undefined): void {
    this.data.chatRequests += 1;
    this.data.byRole[role] += 1;
    if (key !== undefined) {
      const bucket = role === 'reflector' || role === 'consolidator' ? this.data.bySkill : this.data.bySession;
      bucket[key] = (bucket[key] ?? 0) + 1;
    }
    if (fault) this.data.faults[fault] += 1;
  }

  recordRejected(): void {
    this.data.rejected += 1;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = Stats.empty();
    this.prompts.clear();
  }
}
