// The caller's address for per-IP limits. The last X-Forwarded-For entry is the
// one added by the nearest proxy (Next.js's own server, or ours), which a
// client cannot forge; earlier entries can be.
export function clientIp(req: Request): string {
  const forwarded = req.headers.get('x-forwarded-for');
  if (forwarded) {
    const parts = forwarded.split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length > 0) return parts[parts.length - 1];
  }
  return req.headers.get('x-real-ip') ?? 'unknown';
}
