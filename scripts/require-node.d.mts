export declare const requiredMajor: number;
/** The line to print when `version` (e.g. "20.20.2") is too old, or null when it will do. */
export declare function nodeVersionProblem(version: string): string | null;
