/**
 * A deterministic simulated task family: "multi-city weather report with injected
 * timeouts". It stands in for a real agent + evaluator in tests, the demo and the
 * example evaluator worker. Nothing runs: the score is computed from what the skill
 * text says, weighted by the features of the case.
 *
 * Scoring of one case (seed = the evaluator seed):
 * - Requirements, each with a weight that depends on the case:
 *     report    steps/pitfalls mention the weather/forecast           1
 *     geocode   geocoding / coordinates                              1 + 1 per ambiguous city name
 *     verify    verify/check/confirm every/each/all requested city   0.4 per city (×2 on critical cases)
 *     retry     retry … with backoff                                 2.5 if a timeout is injected for
 *                                                                    (case, seed), else 0.25
 *     timezone  time zone(s)                                         1.5 if the cities span time zones
 *     missing   missing fields / unavailable                         1.5 if the provider omits fields
 *     scope     description/when_to_use say multi-city               0.5
 *   A requirement is met when the skill text matches it (regexes below); the phrase
 *   in each `missing: <phrase>` feedback line, added verbatim, meets it.
 * - score = met weight / applicable weight + noise, clamped to [0, 1] and rounded
 *   to 4 decimals. Noise (±0.03) and timeout injection depend only on (case, seed),
 *   so two skills evaluated with the same seed face the same conditions.
 * - tokens: what a run would feed and produce: the skill's text (4 characters a token)
 *   plus 40 per city and 60 per retried timeout; costUsd prices them at
 *   WEATHER_USD_PER_MILLION_TOKENS. A longer skill costs more on every case.
 */
import { z } from 'zod';
import type { Case, Dataset, Evaluation } from '../../core/schemas/gepa';
import type { SkillSpec } from '../../core/schemas/skill';
import { deriveSeed, hash32, Prng } from '../../core/gepa/prng';

export const WeatherCaseInputSchema = z.object({
  request: z.string(),
  cities: z.array(z.string()).min(1),
  ambiguousCities: z.array(z.string()),
  /** Chance that the first weather call for some city times out under a given seed. */
  timeoutRisk: z.number().min(0).max(1),
  multiTimezone: z.boolean(),
  missingFields: z.array(z.string()),
});
export type WeatherCaseInput = z.infer<typeof WeatherCaseInputSchema>;

export type WeatherRequirementId = 'report' | 'geocode' | 'verify' | 'retry' | 'timezone' | 'missing' | 'scope';

interface Requirement {
  id: WeatherRequirementId;
  /** What feedback asks for; adding it verbatim to the right component meets the requirement. */
  phrase: string;
  /** 'method' = steps + pitfalls; 'framing' = description + when_to_use. */
  reads: 'method' | 'framing';
  met: (text: string) => boolean;
}

export const WEATHER_REQUIREMENTS: readonly Requirement[] = [
  { id: 'report', phrase: 'fetch the weather forecast for each city', reads: 'method', met: (t) => /weather|forecast/.test(t) },
  { id: 'geocode', phrase: 'geocode each city to coordinates before calling the weather API', reads: 'method', met: (t) => /geocod|coordinates|latitude/.test(t) },
  {
    id: 'verify',
    phrase: 'verify every requested city appears in the report',
    reads: 'method',
    met: (t) => /verif|check|confirm/.test(t) && /(every|each|all)( requested)? cit/.test(t),
  },
  { id: 'retry', phrase: 'retry timed-out cities with exponential backoff', reads: 'method', met: (t) => /retr(y|ies|ied)/.test(t) && /back-?off|back off/.test(t) },
  { id: 'timezone', phrase: "normalize every timestamp to the city's local time zone", reads: 'method', met: (t) => /time ?zones?/.test(t) },
  { id: 'missing', phrase: 'mark missing fields as unavailable instead of guessing', reads: 'method', met: (t) => /missing (fields?|values?|data)|unavailable/.test(t) },
  { id: 'scope', phrase: 'use it for multi-city weather reports', reads: 'framing', met: (t) => /multi-city|multiple cities|several cities/.test(t) },
];

/** A weak seed: it only says to call the API. */
export const WEATHER_SEED_SKILL: SkillSpec = {
  name: 'weather-report',
  description: 'Reports the weather.',
  when_to_use: 'When the user asks about the weather.',
  steps: ['Call the weather API for each city and summarize the results.'],
  pitfalls: [],
};

/** A skill that covers every requirement (what a good optimizer run should approach). */
export const WEATHER_IMPROVED_SKILL: SkillSpec = {
  name: 'weather-report',
  description: 'Builds a weather report for several cities at once, robust to slow or incomplete providers.',
  when_to_use: 'Use it for multi-city weather reports.',
  steps: [
    'Geocode each city to coordinates before calling the weather API.',
    'Fetch the weather forecast for each city.',
    'Retry timed-out cities with exponential backoff, only the cities that failed.',
    "Normalize every timestamp to the city's local time zone.",
    'Verify every requested city appears in the report.',
  ],
  pitfalls: ['Mark missing fields as unavailable instead of guessing.'],
};

const PLAIN_CITIES: readonly (readonly [string, string])[] = [
  ['Paris', 'Europe/Paris'],
  ['Tokyo', 'Asia/Tokyo'],
  ['Sydney', 'Australia/Sydney'],
  ['Lima', 'America/Lima'],
  ['Nairobi', 'Africa/Nairobi'],
  ['Oslo', 'Europe/Oslo'],
  ['Toronto', 'America/Toronto'],
  ['Mumbai', 'Asia/Kolkata'],
  ['Cairo', 'Africa/Cairo'],
  ['Seoul', 'Asia/Seoul'],
  ['Berlin', 'Europe/Berlin'],
  ['Madrid', 'Europe/Madrid'],
];
const AMBIGUOUS_CITIES: readonly (readonly [string, string])[] = [
  ['Springfield', 'America/Chicago'],
  ['Portland', 'America/Los_Angeles'],
  ['San Jose', 'America/Los_Angeles'],
  ['Valencia', 'Europe/Madrid'],
  ['Cordoba', 'America/Argentina/Cordoba'],
];
const OPTIONAL_FIELDS = ['humidity', 'wind', 'uv_index', 'precipitation'] as const;

export interface WeatherDatasetOptions {
  seed: number;
  feedback: number;
  validation: number;
  holdout: number;
  /** Mark every k-th Holdout case critical (k-th, 2k-th, …). */
  criticalEvery?: number;
  id?: string;
}

function makeCase(id: string, rng: Prng, critical: boolean): Case {
  const count = 1 + rng.nextInt(5);
  const pool = [...PLAIN_CITIES];
  const chosen: (readonly [string, string])[] = [];
  if (rng.nextFloat() < 0.4) chosen.push(AMBIGUOUS_CITIES[rng.nextInt(AMBIGUOUS_CITIES.length)]);
  while (chosen.length < count) chosen.push(pool.splice(rng.nextInt(pool.length), 1)[0]);
  const missingFields = rng.nextFloat() < 0.4 ? [OPTIONAL_FIELDS[rng.nextInt(OPTIONAL_FIELDS.length)]] : [];
  const timeoutRisk = Math.round((0.2 + 0.6 * rng.nextFloat()) * 100) / 100;
  const cities = chosen.map(([name]) => name);
  const input: WeatherCaseInput = {
    request: `Weather report for ${cities.join(', ')}`,
    cities,
    ambiguousCities: chosen.filter((c) => AMBIGUOUS_CITIES.includes(c)).map(([name]) => name),
    timeoutRisk,
    multiTimezone: new Set(chosen.map(([, zone]) => zone)).size > 1,
    missingFields,
  };
  return { id, input, expected: { cities }, critical, metadata: { family: 'weather', cities: String(cities.length) } };
}

/** A dataset of weather cases, fully determined by `seed` and the split sizes. */
export function makeWeatherDataset(options: WeatherDatasetOptions): Dataset {
  const rng = Prng.fromSeed(deriveSeed(options.seed, 'weather-dataset'));
  const split = (name: string, n: number, critical: (i: number) => boolean): Case[] =>
    Array.from({ length: n }, (_, i) => makeCase(`weather-${name}-${String(i + 1).padStart(3, '0')}`, rng, critical(i)));
  const every = options.criticalEvery ?? 0;
  return {
    id: options.id ?? 'weather-sim',
    version: `seed-${options.seed}`,
    feedback: split('feedback', options.feedback, () => false),
    validation: split('validation', options.validation, () => false),
    holdout: split('holdout', options.holdout, (i) => every > 0 && (i + 1) % every === 0),
  };
}

/** Deterministic uniform value in [0, 1) for (case, seed, purpose). */
function unit(caseId: string, seed: number, purpose: string): number {
  return hash32(`weather|${caseId}|${seed}|${purpose}`) / 0x1_0000_0000;
}

function requirementWeight(id: WeatherRequirementId, input: WeatherCaseInput, critical: boolean, timeoutInjected: boolean): number {
  switch (id) {
    case 'report':
      return 1;
    case 'geocode':
      return 1 + input.ambiguousCities.length;
    case 'verify':
      return 0.4 * input.cities.length * (critical ? 2 : 1);
    case 'retry':
      return timeoutInjected ? 2.5 : 0.25;
    case 'timezone':
      return input.multiTimezone ? 1.5 : 0;
    case 'missing':
      return input.missingFields.length > 0 ? 1.5 : 0;
    case 'scope':
      return 0.5;
  }
}

/** The simulated agent model's price, for the evaluations' costUsd. */
export const WEATHER_USD_PER_MILLION_TOKENS = 2;

/** The tokens of one simulated run (see the top of this file). */
export function weatherTokens(spec: SkillSpec, input: WeatherCaseInput, retried: boolean): number {
  const skillText = [spec.description, spec.when_to_use, ...spec.steps, ...spec.pitfalls].join('\n');
  return Math.ceil(skillText.length / 4) + 40 * input.cities.length + (retried ? 60 : 0);
}

/** Simulates running `spec` on one weather case under `seed`. */
export function scoreWeatherCase(spec: SkillSpec, c: Case, seed: number): Evaluation {
  const input = WeatherCaseInputSchema.parse(c.input);
  const method = [...spec.steps, ...spec.pitfalls].join('\n').toLowerCase();
  const framing = `${spec.description}\n${spec.when_to_use}`.toLowerCase();
  const timeoutCity = input.cities[Math.floor(unit(c.id, seed, 'timeout-city') * input.cities.length)];
  const timeoutInjected = unit(c.id, seed, 'timeout') < input.timeoutRisk;

  let total = 0;
  let earned = 0;
  const met = new Set<WeatherRequirementId>();
  const missing: string[] = [];
  for (const r of WEATHER_REQUIREMENTS) {
    const weight = requirementWeight(r.id, input, c.critical, timeoutInjected);
    if (weight === 0) continue;
    total += weight;
    if (r.met(r.reads === 'method' ? method : framing)) {
      earned += weight;
      met.add(r.id);
    } else missing.push(r.phrase);
  }
  const noise = (unit(c.id, seed, 'noise') - 0.5) * 0.06;
  const score = Math.round(Math.min(1, Math.max(0, earned / total + noise)) * 10_000) / 10_000;

  const lines = input.cities.map((city, i) => {
    if (timeoutInjected && city === timeoutCity && !met.has('retry')) return `${city}: (absent: request timed out, not retried)`;
    if (input.ambiguousCities.includes(city) && !met.has('geocode')) return `${city}: weather for the wrong ${city}`;
    const temp = Math.round(unit(c.id, seed, `temp-${i}`) * 35) - 5;
    const extra = input.missingFields.length > 0 ? (met.has('missing') ? `, ${input.missingFields[0]}: unavailable` : `, ${input.missingFields[0]}: 0 (guessed)`) : '';
    const time = input.multiTimezone && !met.has('timezone') ? ' at 12:00 UTC' : ' at 12:00 local time';
    return `${city}: ${temp}°C${extra}${time}`;
  });
  const trace = input.cities.flatMap((city) => {
    const steps: string[] = [];
    if (met.has('geocode')) steps.push(`geocode(${city}) → ok`);
    if (timeoutInjected && city === timeoutCity) {
      steps.push(`weather(${city}) → timeout`);
      steps.push(met.has('retry') ? `retry after backoff weather(${city}) → ok` : `no retry for ${city}`);
    } else steps.push(`weather(${city}) → ok`);
    return steps;
  });
  if (met.has('verify')) trace.push(`verify report covers ${input.cities.length}/${input.cities.length} cities → ok`);

  const toolCalls = trace.filter((t) => !t.startsWith('no retry') && !t.startsWith('verify')).length;
  const feedback = [`${met.size} of ${met.size + missing.length} checks passed (score ${score.toFixed(4)})`, ...missing.map((p) => `missing: ${p}`)].join('\n');
  const tokens = weatherTokens(spec, input, timeoutInjected && met.has('retry'));
  return {
    caseId: c.id,
    score,
    output: `Report: ${lines.join('; ')}`,
    feedback,
    trace: trace.join('\n'),
    objectives: { coverage: Math.round((earned / total) * 10_000) / 10_000, tool_calls: toolCalls },
    tokens,
    costUsd: Math.round(tokens * WEATHER_USD_PER_MILLION_TOKENS) / 1_000_000,
  };
}

/** The evaluator contract for the simulated family: one evaluation per case, in case order. */
export function evaluateWeatherCases(spec: SkillSpec, cases: readonly Case[], seed: number): Evaluation[] {
  return cases.map((c) => scoreWeatherCase(spec, c, seed));
}
