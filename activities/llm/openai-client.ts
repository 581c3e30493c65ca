import OpenAI from 'openai';
import type { EvolutionConfig } from '../../core';

/**
 * One OpenAI client per worker. Its own retries are off: Temporal's activity retry
 * policy is the single place where retries are decided (DESIGN.md, "LLM calls").
 */
export function createOpenAIClient(llm: EvolutionConfig['llm']): OpenAI {
  return new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0, timeout: llm.timeoutMs });
}
