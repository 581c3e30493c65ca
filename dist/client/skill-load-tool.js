"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SkillLoadTool = void 0;
const zod_1 = require("zod");
const errors_1 = require("./errors");
const skill_repository_1 = require("./skill-repository");
const ArgsSchema = zod_1.z.object({ name: zod_1.z.string().min(1, 'name the skill to load') });
/**
 * The `skill_load` tool for OpenAI function calling (progressive disclosure): the tool
 * description carries the index (name: description of each published skill); the body
 * is fetched only when the model asks for it.
 */
class SkillLoadTool {
    repository;
    static NAME = 'skill_load';
    constructor(repository) {
        this.repository = repository;
    }
    /** The tool definition, with the current index in its description. */
    async definition() {
        let skills = [];
        let unavailable = false;
        try {
            skills = await this.repository.list();
        }
        catch (e) {
            // The agent still runs (without skills) while the skill store is down.
            if (!(e instanceof errors_1.ServiceUnavailableError))
                throw e;
            unavailable = true;
        }
        const index = skills.length ? skills.map((s) => `- ${s.name}: ${s.description}`).join('\n') : unavailable ? '(skills are temporarily unavailable)' : '(no skills published yet)';
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
    /** Handles one tool call; the string goes back to the model as the tool message content. */
    async handle(argumentsJson) {
        let args;
        try {
            args = ArgsSchema.parse(JSON.parse(argumentsJson));
        }
        catch (e) {
            return `error: skill_load expects {"name": "<skill name>"} (${e.message})`;
        }
        try {
            return (await this.repository.load(args.name)).markdown;
        }
        catch (e) {
            if (e instanceof skill_repository_1.SkillUnavailableError || e instanceof errors_1.ServiceUnavailableError) {
                return `error: skill "${args.name}" is temporarily unavailable (the skill store cannot be reached). Continue without it, or try skill_load again later.`;
            }
            if (e instanceof errors_1.NotFoundError)
                return `error: ${e.message}. Available: ${(await this.repository.list()).map((s) => s.name).join(', ') || 'none'}`;
            throw e;
        }
    }
}
exports.SkillLoadTool = SkillLoadTool;
//# sourceMappingURL=skill-load-tool.js.map