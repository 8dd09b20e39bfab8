// The process's lifecycle as the ops endpoints see it: set draining when a
// shutdown starts (scripts/server.ts, scripts/serve.ts), so GET /api/ready
// answers 503 and a load balancer stops sending new work while requests in
// flight finish. Process-wide: the server and the Next.js route chunks share it.
import { processWide } from '@/lib/process-wide';

const state = processWide('lifecycle', () => ({ draining: false }));

export function startDraining(): void {
  state.draining = true;
}

export function isDraining(): boolean {
  return state.draining;
}
