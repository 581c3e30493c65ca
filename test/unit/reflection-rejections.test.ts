import { describe, expect, it } from 'vitest';
import { buildReflectionMessages } from '../../core/gepa/reflection-prompt';

const spec = { name: 'weather', description: 'd', when_to_use: 'w', steps: ['s'], pitfalls: [] };

describe('the reflector sees rejected candidates of its skill', () => {
  it('adds a Rejected candidates section with the approver comment (redacted), and none when there are none', () => {
    const rejected = [
      { rejectedAt: 't', reviewer: 'ana', comment: `no paid API, token=ghp_${'a'.repeat(36)}`, proposed: { description: 'x', steps: ['call the paid API'], pitfalls: [] } },
    ];
    const [, user] = buildReflectionMessages({ spec, component: 'steps', records: [], rejected });
    expect(user!.content).toContain('## Rejected candidates');
    expect(user!.content).toContain('call the paid API');
    expect(user!.content).toContain('no paid API');
    expect(user!.content).not.toContain('ghp_aaaa');
    expect(buildReflectionMessages({ spec, component: 'steps', records: [] })[1]!.content).not.toContain('## Rejected candidates');
  });
});
