export interface FoundWorker {
  name: string;
  commands: string[];
  install: string;
  config: string;
  found: { command: string; where: string } | null;
}
export interface Found { workers: FoundWorker[]; links: Array<{ name: string; target: string }> }
export declare function findWorkers(opts?: { workspace?: string | null; pathEnv?: string; cache?: boolean }): Found;
export declare function linkWorkers(links: Found['links'], dir: string): string | null;
export declare function describeWorkers(found: Pick<Found, 'workers'>): string[];
/** PATH without the node_modules/.bin folders npm puts first for this repository (and its parents). */
export declare function personsPath(pathEnv?: string, root?: string): string;
