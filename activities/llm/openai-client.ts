import OpenAI, { type ClientOptions } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import type { EvolutionConfig } from '../../core';
import { readCaBundle } from '../tls';

/**
 * One OpenAI client per worker. Its own retries are off: Temporal's activity retry
 * policy is the single place where retries are decided (DESIGN.md, "LLM calls").
 */
export function createOpenAIClient(llm: EvolutionConfig['llm']): OpenAI {
  // A private CA (EVOLUTION_OPENAI_CA_FILE) needs a dispatcher of its own; undici's fetch
  // takes undici's dispatcher (the global fetch may bundle another undici version).
  const tls: Pick<ClientOptions, 'fetch' | 'fetchOptions'> = llm.caFile
    ? {
        fetch: undiciFetch as unknown as ClientOptions['fetch'],
        fetchOptions: { dispatcher: new Agent({ connect: { ca: readCaBundle('EVOLUTION_OPENAI_CA_FILE', llm.caFile) } }) } as ClientOptions['fetchOptions'],
      }
    : {};
  return new OpenAI({ baseURL: llm.baseURL, apiKey: llm.apiKey, maxRetries: 0, timeout: llm.timeoutMs, ...tls });
}
