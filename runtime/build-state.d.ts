/** Repository root (the directory holding package.json). */
export const ROOT: string;
export const DIST: string;
/** Touched with the start time of the last complete build. */
export const STAMP: string;
/** The prebuilt workflow bundle (`workflowBundle: { codePath }`). */
export const WORKFLOW_BUNDLE: string;
export function buildStatus(): 'fresh' | 'missing' | 'stale';
export function ensureBuild(log?: (line: string) => void): boolean;
/** Newest modification time (ms) of a source file under `dir`, build outputs and installed modules not counted. */
export function newestMtime(dir: string): number;
export function newestSource(): number;
