import { z } from 'zod';
import type { SkillLoadTool } from './skill-load-tool';

/**
 * The skill_load tool in the shape the Vercel AI SDK's `tool()` takes (`description`,
 * `inputSchema` as a zod schema, `execute`), typed structurally: this library does not depend
 * on the `ai` package. Usage: `tools: { skill_load: tool(await vercelAiSkillLoadTool(skillLoad)) }`.
 */
export interface VercelAiToolSpec {
  description: string;
  inputSchema: z.ZodObject<{ name: z.ZodString }>;
  execute(input: { name: string }): Promise<string>;
}

/** Builds it from the current index (call again after SkillRepository.refresh() answered true). */
export async function vercelAiSkillLoadTool(skillLoad: SkillLoadTool): Promise<VercelAiToolSpec> {
  const { function: definition } = await skillLoad.definition();
  return {
    description: definition.description,
    inputSchema: z.object({ name: z.string().describe('The skill name, exactly as listed') }),
    execute: ({ name }) => skillLoad.handle(JSON.stringify({ name })),
  };
}
