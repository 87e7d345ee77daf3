export interface StartArgs { port: number | null; workspace: string | null; build: boolean }
export declare function parseStartArgs(argv: string[], env?: Record<string, string | undefined>): StartArgs;
