// Reads a JSON body with a hard size cap, counting bytes as they arrive so a
// lying or absent Content-Length cannot get more than the cap into memory.
import { AppError, type ErrorCode } from '@/lib/errors';

export const MAX_BODY_BYTES = 64 * 1024;

export async function readRawBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
  }
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('payload_too_large', `Request body is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses the body as JSON; malformed JSON is a validation failure with the given code. */
export async function readJsonBody(
  req: Request,
  options: { invalidCode?: ErrorCode; maxBytes?: number } = {},
): Promise<{ raw: string; value: unknown }> {
  const raw = await readRawBody(req, options.maxBytes);
  if (raw.trim() === '') throw new AppError(options.invalidCode ?? 'validation_error', 'Request body must be a JSON object');
  try {
    return { raw, value: JSON.parse(raw) as unknown };
  } catch {
    throw new AppError(options.invalidCode ?? 'validation_error', 'Request body is not valid JSON');
  }
}
