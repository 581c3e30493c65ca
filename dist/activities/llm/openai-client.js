"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createOpenAIClient = createOpenAIClient;
const openai_1 = __importDefault(require("openai"));
/**
 * One OpenAI client per worker. Its own retries are off: Temporal's activity retry
 * policy is the single place where retries are decided (DESIGN.md, "LLM calls").
 */
function createOpenAIClient(llm) {
    return new openai_1.default({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0, timeout: llm.timeoutMs });
}
//# sourceMappingURL=openai-client.js.map