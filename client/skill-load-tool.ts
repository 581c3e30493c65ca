import { z } from 'zod';
import { NotFoundError, ServiceUnavailableError } from '../core/errors';
import { skillLoadMarker } from '../core/usage/skill-load-marker';
import { SkillUnavailableError, type SkillRepository } from './skill-repository';

/**
 * A function tool in the OpenAI Chat Completions format (`ChatCompletionFunctionTool` of the
 * `openai` package, which this library does not depend on): pass it in `tools`.
 */
export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const ArgsSchema = z.object({ name: z.string().min(1, 'name the skill to load') });

/**
 * The `skill_load` tool for OpenAI function calling (progressive disclosure): the tool
 * description carries the index (name: description of each published skill); the body
 * is fetched only when the model asks for it.
 */
export class SkillLoadTool {
  static readonly NAME = 'skill_load';

  constructor(private readonly repository: SkillRepository) {}

  /** The tool definition, with the current index in its description. */
  async definition(): Promise<OpenAIFunctionTool> {
    let skills: Awaited<ReturnType<SkillRepository['list']>> = [];
    let unavailable = false;
    try {
      skills = await this.repository.list();
    } catch (e) {
      // The agent still runs (without skills) while the skill store is down.
      if (!(e instanceof ServiceUnavailableError)) throw e;
      unavailable = true;
    }
    const index = skills.length
      ? skills.map((s) => `- ${s.name}: ${s.description}`).join('\n')
      : unavailable
        ? '(skills are temporarily unavailable)'
        : '(no skills published yet)';
    return {
      type: 'function',
      function: {
        name: SkillLoadTool.NAME,
        description: `Load the full instructions (SKILL.md) of a skill before doing a task it covers. Available skills:\n${index}`,
        parameters: {
          type: 'object',
          properties: { name: { type: 'string', description: 'The skill name, exactly as listed', ...(skills.length ? { enum: skills.map((s) => s.name) } : {}) } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    };
  }

  /**
   * Handles one tool call; the string goes back to the model as the tool message content:
   * a marker line naming the skill's revision (an HTML comment), then its SKILL.md.
   */
  async handle(argumentsJson: string): Promise<string> {
    let args: z.infer<typeof ArgsSchema>;
    try {
      args = ArgsSchema.parse(JSON.parse(argumentsJson));
    } catch (e) {
      return `error: skill_load expects {"name": "<skill name>"} (${(e as Error).message})`;
    }
    try {
      const loaded = await this.repository.load(args.name);
      // The revision the agent was given, for usage attribution (core/usage): the learning job reads it back from the transcript.
      return `${skillLoadMarker(loaded)}\n${loaded.markdown}`;
    } catch (e) {
      if (e instanceof SkillUnavailableError || e instanceof ServiceUnavailableError) {
        return `error: skill "${args.name}" is temporarily unavailable (the skill store cannot be reached). Continue without it, or try skill_load again later.`;
      }
      if (e instanceof NotFoundError) return `error: ${e.message}. Available: ${(await this.repository.list()).map((s) => s.name).join(', ') || 'none'}`;
      throw e;
    }
  }
}
