// Types of scripts/chromium-path.mjs (plain JavaScript: scripts/test.mjs imports it).
export declare const CHROMIUM_CANDIDATES: readonly string[];
export declare function chromiumPath(env?: Record<string, string | undefined>, exists?: (file: string) => boolean): string | undefined;
