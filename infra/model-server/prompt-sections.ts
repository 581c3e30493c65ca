import type { z } from 'zod';
import { HttpError } from './http-util';

export interface PromptSection {
  title: string;
  /** Text outside fenced blocks, trimmed. */
  text: string;
  /** Raw text of the first fenced code block under the heading, if any. */
  fenced?: string;
}

const HEADING = /^##\s+(.+?)\s*#*\s*$/;
const FENCE_OPEN = /^\s*```[A-Za-z0-9_-]*\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;

/**
 * Splits a Markdown prompt into `## Heading` sections. Headings inside fenced blocks are
 * ignored, so JSON payloads may contain anything except a line that is only ``` .
 */
export function parseSections(markdown: string): Map<string, PromptSection> {
  const sections = new Map<string, PromptSection>();
  let current: PromptSection | undefined;
  let fenceLines: string[] | undefined;
  const textLines = new Map<PromptSection, string[]>();

  for (const line of markdown.split(/\r?\n/)) {
    if (fenceLines) {
      if (FENCE_CLOSE.test(line)) {
        if (current && current.fenced === undefined) current.fenced = fenceLines.join('\n');
        fenceLines = undefined;
      } else {
        fenceLines.push(line);
      }
      continue;
    }
    if (FENCE_OPEN.test(line)) {
      fenceLines = [];
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      current = { title: heading[1], text: '' };
      textLines.set(current, []);
      const key = normalizeTitle(heading[1]);
      if (!sections.has(key)) sections.set(key, current);
      continue;
    }
    if (current) textLines.get(current)!.push(line);
  }
  for (const [section, lines] of textLines) section.text = lines.join('\n').trim();
  return sections;
}

function normalizeTitle(title: string): string {
  return title.trim().toLowerCase();
}

export function findSection(sections: Map<string, PromptSection>, title: string): PromptSection | undefined {
  return sections.get(normalizeTitle(title));
}

/** Reads `## title` followed by a ```json block; a missing optional section yields undefined. */
export function sectionJson(sections: Map<string, PromptSection>, title: string, required: boolean): unknown {
  const section = findSection(sections, title);
  if (!section || section.fenced === undefined) {
    if (!required) return undefined;
    throw contractViolation(`the prompt has no "## ${title}" section followed by a \`\`\`json block`);
  }
  try {
    return JSON.parse(section.fenced);
  } catch (e) {
    throw contractViolation(`the \`\`\`json block under "## ${title}" is not valid JSON: ${(e as Error).message}`);
  }
}

/** The prompt does not follow the documented contract: a client bug, answered with 400. */
export function contractViolation(message: string): HttpError {
  return new HttpError(400, `prompt contract violation: ${message}`, 'invalid_request_error', 'prompt_contract_violation');
}

/** Validates a section's JSON against the shape the contract documents. */
export function sectionShape<T>(schema: z.ZodType<T>, value: unknown, section: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw contractViolation(`"## ${section}" has the wrong shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  return parsed.data;
}
