// GET /v1/sse/updates – the caller's live stream of SDKUpdate messages
import { getBus } from '@/lib/bus';
import { userChannel } from '@/lib/updates/publish';
import { userRoute } from '../handler';

const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

export const streamUpdates = userRoute({ tokenInQuery: true }, async ({ req, auth }) => {
  const bus = await getBus();
  let closed = false;
  let cleanup: () => void = () => undefined;
  let counter = 0;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const unsubscribe = await bus.subscribe(userChannel(auth.appId, auth.userId), (message) => {
        counter += 1;
        send(`id: ${Date.now()}-${counter}\ndata: ${message}\n\n`);
      });
      const timer = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        void unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      req.signal.addEventListener('abort', cleanup, { once: true });
      send(': connected\n\n');
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
});
