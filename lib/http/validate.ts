// zod parsing with the spec's error shape: the message names the failing field.
import type { z } from 'zod';
import { AppError, type ErrorCode } from '@/lib/errors';
import { describeIssues } from '@/lib/contract/describe-issues';

export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  options: { code?: ErrorCode; prefix?: string } = {},
): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError(options.code ?? 'validation_error', describeIssues(result.error, options.prefix));
  return result.data;
}

/** Query parameters as a plain object (last value wins) for zod. */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams.entries());
}
