// The ranking model: OpenAI (or any OpenAI-compatible API at OPENAI_BASE_URL)
// through the AI SDK when OPENAI_API_KEY is set, none otherwise. Tests swap in
// the AI SDK's mock model. Process-wide (lib/process-wide.ts): Next.js bundles route handlers
// into chunks that each hold their own copy of this module.
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import { getConfig } from '@/lib/config';
import { logWarn } from '@/lib/log';
import { processWide } from '@/lib/process-wide';

export interface ModelSettings {
  /** null: no model configured; every answer is the fallback. */
  model: LanguageModel | null;
  timeoutMs: number;
}

const state = processWide('recommendations.model', (): { configured?: ModelSettings; override?: ModelSettings } => ({}));

function fromConfig(): ModelSettings {
  const config = getConfig();
  if (!config.openaiApiKey) {
    // Once per process: every recommendation will be the fallback, and why.
    logWarn('recommendations: fallback only', { reason: 'no_model', detail: 'OPENAI_API_KEY is not set' });
    return { model: null, timeoutMs: config.openaiTimeoutMs };
  }
  const provider = createOpenAI({ apiKey: config.openaiApiKey, baseURL: config.openaiBaseUrl ?? undefined });
  // Chat Completions: the API every OpenAI-compatible server (vLLM, Ollama, gateways) speaks.
  return { model: provider.chat(config.openaiModel), timeoutMs: config.openaiTimeoutMs };
}

export function modelSettings(): ModelSettings {
  if (state.override) return state.override;
  state.configured ??= fromConfig();
  return state.configured;
}

/** Tests only: use this model (and timeout) instead of the configuration; null restores it. */
export function setModelForTests(settings: { model: LanguageModel | null; timeoutMs?: number } | null): void {
  state.override = settings ? { model: settings.model, timeoutMs: settings.timeoutMs ?? getConfig().openaiTimeoutMs } : undefined;
  state.configured = undefined;
}
