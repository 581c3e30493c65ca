import OpenAI from 'openai';
import type { EvolutionConfig } from '../../core';
import { readCaBundle } from '../../storage/tls';
import { createNodeFetch } from './node-fetch';

/**
 * One OpenAI client per worker, on node:http(s) keep-alive connections (createNodeFetch),
 * trusting EVOLUTION_OPENAI_CA_FILE when it is set. Its own retries are off: Temporal's
 * activity retry policy is the single place where retries are decided (docs/design.md, "LLM calls").
 */
export function createOpenAIClient(llm: EvolutionConfig['llm']): OpenAI {
  const fetch = createNodeFetch(llm.caFile ? { ca: readCaBundle('EVOLUTION_OPENAI_CA_FILE', llm.caFile) } : {});
  return new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0, timeout: llm.timeoutMs, fetch });
}
