// The skill_load tool in a Vercel AI SDK agent (install `ai` and a provider yourself; this
// library does not depend on them). vercelAiSkillLoadTool gives what `tool()` takes.
import { generateText, stepCountIs, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { createSkillStore, parseConfig, SkillLoadTool, SkillRepository, vercelAiSkillLoadTool } from '@skill-evolution/client';

const config = parseConfig(process.env);
const repository = new SkillRepository(createSkillStore(config.s3), { mode: 'app', app: 'my-app' });
await repository.refresh();
const skillLoad = tool(await vercelAiSkillLoadTool(new SkillLoadTool(repository)));

const { text } = await generateText({
  model: openai('gpt-4.1-mini'),
  tools: { skill_load: skillLoad },
  stopWhen: stepCountIs(5),
  prompt: process.argv[2] ?? 'Give me the weather report for Paris, Springfield and Tokyo.',
});
console.log(text);
