// Next.js start-up hook: check the configuration, migrate, seed the demo.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { ConfigError } = await import('./lib/config');
  try {
    const { boot } = await import('./lib/boot');
    await boot();
  } catch (err) {
    // One clear line for a configuration problem, then stop.
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
}
