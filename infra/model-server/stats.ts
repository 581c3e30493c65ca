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

export class Stats {
  private data = Stats.empty();

  private static empty(): StatsSnapshot {
    return {
      chatRequests: 0,
      byRole: { reviewer: 0, reflector: 0, other: 0 },
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
      const bucket = role === 'reflector' ? this.data.bySkill : this.data.bySession;
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
  }
}
