import { describe, expect, it } from 'vitest';
import { redactDataset, type Dataset } from '../../core';

describe('redactDataset', () => {
  it('redacts every string of case inputs, expected values and metadata, keeping ids and flags', () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const dataset: Dataset = {
      id: 'd',
      version: '1',
      feedback: [
        {
          id: 'f1',
          input: { request: `deploy with ${key}`, nested: [{ url: 'https://x.example/a?sig=s1gcanary12345' }] },
          expected: `DB_PASSWORD=pwcanary123`,
          critical: false,
          metadata: { note: `token: tkcanary123456` },
        },
      ],
      validation: [{ id: 'v1', input: 'plain text', critical: true }],
      holdout: [],
    };
    const out = redactDataset(dataset);
    const text = JSON.stringify(out);
    for (const canary of [key, 's1gcanary12345', 'pwcanary123', 'tkcanary123456']) expect(text).not.toContain(canary);
    expect(out.feedback[0]).toMatchObject({ id: 'f1', critical: false, expected: 'DB_PASSWORD=[REDACTED]', metadata: { note: 'token: [REDACTED]' } });
    expect(out.validation).toEqual(dataset.validation);
  });
});
