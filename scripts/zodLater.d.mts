import type { BuildOptions, Plugin } from 'esbuild';
export declare const ZOD_FILE: string;
export declare function usedZodNames(root?: string): string[];
export declare const zodLater: Plugin;
export declare function zodBundle(node: BuildOptions, outfile: string, options?: { every?: boolean }): BuildOptions;
