import { describe, expect, it } from 'vitest';
import type { SkillSpec } from '../../core/schemas';
import { SkillMarkdownError, normalizeSkillSpec, parseSkillMarkdown, renderSkillMarkdown } from '../../core/skills';

const weather: SkillSpec = {
  name: 'Weather - Multi-City',
  description: 'Collect weather for several cities and verify the report.',
  when_to_use: 'The user asks for weather in two or more cities.',
  steps: ['Geocode every city in one batch.', 'Fetch forecasts in one time zone.', 'Retry only the failed cities.'],
  pitfalls: ['Do not rerun the whole batch on one timeout.'],
};

describe('renderSkillMarkdown', () => {
  it('writes frontmatter and the three sections', () => {
    const md = renderSkillMarkdown(weather);
    expect(md).toBe(
      [
        '---',
        'name: "Weather - Multi-City"',
        'description: "Collect weather for several cities and verify the report."',
        '---',
        '',
        '# Weather - Multi-City',
        '',
        '## When to use',
        '',
        'The user asks for weather in two or more cities.',
        '',
        '## Steps',
        '',
        '1. Geocode every city in one batch.',
        '2. Fetch forecasts in one time zone.',
        '3. Retry only the failed cities.',
        '',
        '## Pitfalls',
        '',
        '- Do not rerun the whole batch on one timeout.',
        '',
      ].join('\n'),
    );
  });

  it('omits the Pitfalls section when there are none', () => {
    expect(renderSkillMarkdown({ ...weather, pitfalls: [] })).not.toContain('## Pitfalls');
  });
});

describe('SKILL.md round trip', () => {
  const awkward: string[] = [
    'plain',
    'colon: inside',
    'key: "quoted" and \'single\'',
    'line one\nline two',
    '---',
    '--- leading dashes\n---\nmore',
    '# not a heading',
    '## Steps',
    '\\backslash start',
    '   indented start',
    'tab\tinside',
    'unicode: 日本語 😀 café',
    '\u2028line separator\u2029',
    'trailing spaces   \nnext',
    '1. looks like a list item',
    '- looks like a bullet',
    'blank\n\n\nlines',
    'ends with backslash \\',
    '"starts with a quote',
    'control \u0001\u007f\u0085 chars',
    '> quote',
    'a: b # comment-like',
  ];

  it('preserves every awkward string in every field', () => {
    for (const s of awkward) {
      const spec: SkillSpec = {
        name: s.split('\n')[0].trim() || 'named',
        description: s,
        when_to_use: s,
        steps: [s, `${s}\n  continued`, 'plain step'],
        pitfalls: [s],
      };
      const parsed = parseSkillMarkdown(renderSkillMarkdown(spec));
      expect(parsed).toEqual(normalizeSkillSpec(spec));
      // Rendering is canonical: a second round trip is byte-identical.
      expect(renderSkillMarkdown(parsed)).toBe(renderSkillMarkdown(spec));
    }
  });

  it('preserves inner structure of multi-line steps, including ten or more steps', () => {
    const steps = Array.from({ length: 12 }, (_, i) => `step ${i + 1}\n    code line\n\n## fake heading\n2. fake item`);
    const spec: SkillSpec = { ...weather, steps, pitfalls: ['p1\n\n- nested bullet', 'p2'] };
    expect(parseSkillMarkdown(renderSkillMarkdown(spec))).toEqual(normalizeSkillSpec(spec));
  });

  it('normalizes only what it documents: edge whitespace, CRLF, empty list items', () => {
    const spec: SkillSpec = { name: '  Name  ', description: ' d ', when_to_use: '\r\nwhen\r\nthen \r\n', steps: ['  a  ', '', '   ', 'b\r\nc'], pitfalls: [''] };
    expect(parseSkillMarkdown(renderSkillMarkdown(spec))).toEqual({ name: 'Name', description: 'd', when_to_use: 'when\nthen', steps: ['a', 'b\nc'], pitfalls: [] });
  });
});

describe('parseSkillMarkdown', () => {
  it('reads hand-written skills with plain, single-quoted and block scalars and extra keys', () => {
    const md = [
      '---',
      'name: weather-report',
      "description: 'It''s a report: fast'",
      'license: MIT',
      'metadata:',
      '  owner: team',
      '---',
      '# Weather',
      '',
      'Some intro.',
      '',
      '## When to Use',
      'Any weather question.',
      '',
      '## Steps',
      '1) first',
      '2) second',
      '   continued',
      '',
      '## Pitfalls',
      '* careful',
      '',
      '## Examples',
      'ignored',
    ].join('\r\n');
    expect(parseSkillMarkdown(md)).toEqual({
      name: 'weather-report',
      description: "It's a report: fast",
      when_to_use: 'Any weather question.',
      steps: ['first', 'second\ncontinued'],
      pitfalls: ['careful'],
    });
  });

  it('reads block scalars', () => {
    const md = ['---', 'name: x', 'description: >-', '  folded', '  text', '---', '## Steps', '1. a'].join('\n');
    expect(parseSkillMarkdown(md).description).toBe('folded text');
    const literal = ['---', 'name: x', 'description: |', '  line1', '  line2', '---'].join('\n');
    expect(parseSkillMarkdown(literal).description).toBe('line1\nline2');
  });

  it('gives clear errors on malformed documents', () => {
    const bad: Array<[string, RegExp]> = [
      ['no frontmatter', /must start with a YAML frontmatter/],
      ['---\nname: x\n', /not closed/],
      ['---\ndescription: d\n---\n', /non-empty "name"/],
      ['---\nname: "unterminated\n---\n', /unterminated double-quoted/],
      ['---\nname: "bad \\q escape"\n---\n', /invalid escape/],
      ['---\nname: a\nname: b\n---\n', /repeats the key "name"/],
      ['---\nname: a\n---\n## Steps\n1. a\n## Steps\n1. b\n', /more than one "## Steps"/],
      ['---\nname: a\njust text\n---\n', /not "key: value"/],
      [`---\nname: ${'n'.repeat(300)}\n---\n`, /name: skill name is longer than 200/],
    ];
    for (const [md, message] of bad) {
      expect(() => parseSkillMarkdown(md)).toThrow(SkillMarkdownError);
      expect(() => parseSkillMarkdown(md)).toThrow(message);
    }
  });
});
