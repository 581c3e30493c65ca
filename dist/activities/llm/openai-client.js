"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.createOpenAIClient = createOpenAIClient;
const openai_1 = __importDefault(require("openai"));
const undici_1 = require("undici");
const tls_1 = require("../tls");
/**
 * One OpenAI client per worker. Its own retries are off: Temporal's activity retry
 * policy is the single place where retries are decided (DESIGN.md, "LLM calls").
 */
function createOpenAIClient(llm) {
    // A private CA (EVOLUTION_OPENAI_CA_FILE) needs a dispatcher of its own; undici's fetch
    // takes undici's dispatcher (the global fetch may bundle another undici version).
    const tls = llm.caFile
        ? {
            fetch: undici_1.fetch,
            fetchOptions: { dispatcher: new undici_1.Agent({ connect: { ca: (0, tls_1.readCaBundle)('EVOLUTION_OPENAI_CA_FILE', llm.caFile) } }) },
        }
        : {};
    return new openai_1.default({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0, timeout: llm.timeoutMs, ...tls });
}
//# sourceMappingURL=openai-client.js.map