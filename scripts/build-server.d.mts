// Types of scripts/build-server.mjs (plain JavaScript: it runs before anything is built).
export declare const SERVER_BUNDLE: string;
export declare function isBuildStale(): boolean;
export declare function buildServer(): Promise<void>;
/** The newest modification time (ms) of the files under `dir` that go into the build. */
export declare function newestSource(dir: string): number;
