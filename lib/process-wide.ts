// Process-wide objects live on globalThis under a Symbol.for key. Next.js
// compiles the instrumentation hook and each route into chunks that each
// hold their own copy of every module, so module-level state (and class
// identity) exists once per chunk; globalThis exists once per process.
type Slots = Record<symbol, unknown>;

/** The object registered under `name` in this process, created on first use. */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`questline.${name}`);
  const slots = globalThis as unknown as Slots;
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}
