// The left side of a worker's diff: a file as it was at the worktree's base commit, read with
// the core's contentAt (git cat-file), read-only. The URI's query carries the repository, commit
// and path; an empty commit is the empty side of an added or deleted file.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';
import { isTrusted, UNTRUSTED_WORKTREE_REFUSAL } from '../settings/trust';
import type { WorktreeCore } from './workerWorktrees';

export const BASE_SCHEME = 'rpcworkers-base';

const querySchema = lazySchema(() => z.object({ repo: z.string(), commit: z.string(), path: z.string() }));
export type BaseRef = LazyInfer<typeof querySchema>;

export function baseUri(ref: BaseRef): vscode.Uri {
  // The path makes the tab's name and language; the query says what to read.
  return vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${ref.path}`, query: JSON.stringify(ref) });
}

export class BaseContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly core: () => WorktreeCore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    let ref: BaseRef;
    try {
      const parsed = querySchema.safeParse(JSON.parse(uri.query));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message);
      ref = parsed.data;
    } catch (error) {
      throw new Error(`RPC Workers: not a base-file address (${(error as Error).message})`);
    }
    if (!ref.commit) return '';
    // Any link can name this scheme, and its query names the folder git runs in.
    if (!isTrusted()) throw new Error(UNTRUSTED_WORKTREE_REFUSAL);
    const r = await this.core().contentAt(ref.repo, ref.commit, ref.path);
    if (r.status !== 'ok') return '';
    return new TextDecoder('utf-8').decode(r.content);
  }
}
