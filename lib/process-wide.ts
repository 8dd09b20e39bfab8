// Process-wide objects live on globalThis under a Symbol.for key. Next.js
// compiles the instrumentation hook and each route into chunks that each
// hold their own copy of every module, so module-level state (and class
// identity) exists once per chunk; globalThis exists once per process.
type Slots = Record<symbol, unknown>;

// How each slot was made, for a test that gives a process its first state
// back (lib/testing/fresh-process.ts). Outside the `questline.` names, so it
// is never taken for a slot.
const CREATORS = Symbol.for('questline:process-wide.creators');

/** The function that made each slot of processWide(), by its key. */
export function processWideCreators(): Map<symbol, () => unknown> {
  const slots = globalThis as unknown as Record<symbol, Map<symbol, () => unknown> | undefined>;
  return (slots[CREATORS] ??= new Map());
}

/** The object registered under `name` in this process, created on first use. */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`questline.${name}`);
  const slots = globalThis as unknown as Slots;
  if (!(key in slots)) {
    slots[key] = create();
    processWideCreators().set(key, create);
  }
  return slots[key] as T;
}
