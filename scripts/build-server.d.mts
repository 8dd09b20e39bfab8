// Types of scripts/build-server.mjs (plain JavaScript: it runs before anything is built).
export declare const SERVER_BUNDLE: string;
export declare function isBuildStale(): boolean;
export declare function buildServer(): Promise<void>;
