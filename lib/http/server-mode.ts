// Whether this process is Questline's own HTTP server (`npm start`,
// scripts/server.ts) with Next.js mounted inside it, rather than `next start`
// or a serverless platform running the route files.
import { processWide } from '@/lib/process-wide';

export function customServer(): { active: boolean } {
  return processWide('customServer', () => ({ active: false }));
}
