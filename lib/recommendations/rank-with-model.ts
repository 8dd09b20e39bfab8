// Asks the model to rank the candidates, and trusts nothing it answers: the
// output must parse against the schema, name only candidates, each once, at
// most `limit` of them, with a short reason. Every failure is a
// RecommendationFailure whose `kind` says why (logged by the caller, which
// answers the fallback instead).
import { generateText, NoObjectGeneratedError, NoOutputGeneratedError, Output, type LanguageModel } from 'ai';
import { z } from 'zod';
import type { Candidate } from './candidates';
import { buildPrompt, SYSTEM_PROMPT } from './prompt';

export type FailureKind =
  | 'no_model'
  | 'timeout'
  | 'api_error'
  | 'invalid_output'
  | 'empty'
  | 'too_many_ids'
  | 'duplicate_ids'
  | 'unknown_ids';

export class RecommendationFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'RecommendationFailure';
  }
}

const MAX_REASON_LENGTH = 500;

/** What the model must answer (structured output). Bounds are checked after parsing, with a precise failure kind. */
const modelAnswerSchema = z.object({
  missionIds: z.array(z.string()).describe('Ids of the recommended missions, best first'),
  reason: z.string().describe('One or two short sentences for the player'),
});
export type ModelAnswer = z.infer<typeof modelAnswerSchema>;

export function validateAnswer(answer: ModelAnswer, candidates: Candidate[], limit: number): ModelAnswer {
  const ids = answer.missionIds;
  if (ids.length === 0) throw new RecommendationFailure('empty', 'the model recommended nothing');
  if (ids.length > limit) throw new RecommendationFailure('too_many_ids', `the model answered ${ids.length} ids for a limit of ${limit}`);
  if (new Set(ids).size !== ids.length) throw new RecommendationFailure('duplicate_ids', `the model repeated an id: ${JSON.stringify(ids)}`);
  const known = new Set(candidates.map((c) => c.mission.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new RecommendationFailure('unknown_ids', `the model answered ids that are not candidates: ${JSON.stringify(unknown)}`);
  const reason = answer.reason.trim();
  if (reason.length === 0 || reason.length > MAX_REASON_LENGTH) {
    throw new RecommendationFailure('invalid_output', `the reason must be 1 to ${MAX_REASON_LENGTH} characters (got ${reason.length})`);
  }
  return { missionIds: ids, reason };
}

function classify(err: unknown): RecommendationFailure {
  if (err instanceof RecommendationFailure) return err;
  if (NoObjectGeneratedError.isInstance(err) || NoOutputGeneratedError.isInstance(err)) {
    return new RecommendationFailure('invalid_output', `the model's output did not parse: ${(err as Error).message}`, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new RecommendationFailure('api_error', `the model call failed: ${message}`, { cause: err });
}

export async function rankWithModel(args: {
  model: LanguageModel;
  timeoutMs: number;
  candidates: Candidate[];
  limit: number;
  now: number;
}): Promise<ModelAnswer> {
  const { model, timeoutMs, candidates, limit, now } = args;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced, not only signalled: a provider that ignores the abort must not hold the request.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const failure = new RecommendationFailure('timeout', `no answer within ${timeoutMs} ms`);
      controller.abort(failure);
      reject(failure);
    }, timeoutMs);
  });
  try {
    const call = generateText({
      model,
      system: SYSTEM_PROMPT,
      prompt: buildPrompt(candidates, limit, now),
      output: Output.object({ schema: modelAnswerSchema, name: 'recommendations' }),
      // One attempt: retries could not fit in the time allowed, and the fallback is always there.
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    const result = await Promise.race([call, deadline]);
    return validateAnswer(result.output, candidates, limit);
  } catch (err) {
    throw controller.signal.aborted && !(err instanceof RecommendationFailure)
      ? new RecommendationFailure('timeout', `no answer within ${timeoutMs} ms`, { cause: err })
      : classify(err);
  } finally {
    clearTimeout(timer);
  }
}
