/**
 * The evaluation judge's stand-in (`evolution evaluate --judge-model`): a deterministic
 * quality score from what the prompt shows, so runs and tests repeat exactly. It rewards
 * a final answer that is there, uses the tool results (names a value a tool returned) and
 * says what was done, and gives nothing for a missing answer. It proves the judge's
 * plumbing (request, schema, report), not judgement.
 */
export interface Judgement {
  quality: number;
  reason: string;
}

function section(prompt: string, title: string): string {
  const start = prompt.indexOf(`## ${title}\n`);
  if (start < 0) return '';
  const rest = prompt.slice(start + title.length + 4);
  const end = rest.search(/\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

export function judge(userPrompt: string): Judgement {
  const answer = section(userPrompt, 'Final answer');
  if (!answer || answer === '(no answer)') return { quality: 0, reason: 'stand-in judge: no final answer' };
  const toolLines = section(userPrompt, 'Tool calls')
    .split('\n')
    .filter((l) => /^\d+\. /.test(l));
  const results = toolLines.map((l) => l.slice(l.indexOf('→') + 1).trim()).filter((r) => r && !r.startsWith('error'));
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9][a-z0-9-]{3,}/g) ?? []);
  const answerWords = words(answer);
  const grounded = results.filter((r) => [...words(r)].some((w) => answerWords.has(w))).length;
  const groundedShare = results.length ? grounded / results.length : 0;
  const substance = Math.min(1, answerWords.size / 12);
  const quality = Math.round((0.2 + 0.5 * groundedShare + 0.3 * substance) * 100) / 100;
  return {
    quality,
    reason: `stand-in judge: the answer uses ${grounded} of ${results.length} successful tool results and has ${answerWords.size} distinct words`,
  };
}
