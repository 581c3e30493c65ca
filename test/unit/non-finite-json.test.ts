import { describe, expect, it } from 'vitest';
import { quoteNonFiniteNumbers } from '../../core/non-finite-json';

describe('quoteNonFiniteNumbers (JSON as Python json.dumps writes it)', () => {
  it('quotes bare NaN / Infinity / -Infinity tokens so the document parses', () => {
    const text = '[{"caseId":"a","score":NaN,"objectives":{"cost":Infinity,"gain":-Infinity}}]';
    expect(JSON.parse(quoteNonFiniteNumbers(text))).toEqual([{ caseId: 'a', score: 'NaN', objectives: { cost: 'Infinity', gain: '-Infinity' } }]);
  });

  it('leaves string contents (escaped quotes included) and valid JSON untouched', () => {
    const text = '{"feedback":"score was NaN \\"Infinity\\" here","score":0.5}';
    expect(quoteNonFiniteNumbers(text)).toBe(text);
    expect(quoteNonFiniteNumbers('[1,2,3]')).toBe('[1,2,3]');
    expect(JSON.parse(quoteNonFiniteNumbers('{"a":"NaN","b":NaN}'))).toEqual({ a: 'NaN', b: 'NaN' });
  });
});
