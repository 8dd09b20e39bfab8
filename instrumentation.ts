// Next.js start-up hook: check the configuration, migrate, seed the demo.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./lib/boot-next');
}
