// "Allow always", kept by the host for one worker: when the person answers an agent's question
// with an `allow_always` option, later questions of that worker that match are answered with the
// agent's allow option without asking, until the person forgets the rule (or the worker ends).
//
// The key is what the person saw and agreed to, no wider: for a call that runs a command
// (`execute` with a command), the exact command line, since "allow `npm test` always" must not
// allow `rm -rf .`; for any other call, its kind and its title (the title is what the question
// showed, and agents put the path or the target in it: "Write notes.md"), since a kind alone
// ("edit") would allow every edit anywhere after one yes. The guard's wall is judged before any
// rule: a rule never lets through what the policy refuses; and on a guarded worker a question
// the wall cannot judge (kind "other" naming no path) is never answered by a rule nor makes one
// (permissions.ts), since nothing in its key would confine what it writes.
import type { AllowedRule, PermissionAsk } from '../api';
import type { PermissionOption } from '../events/agentEvent';

export type { AllowedRule };

/** The rule's key for a question (see the header for why it is this narrow). */
export function ruleKey(ask: Pick<PermissionAsk, 'toolKind' | 'title' | 'command'>): string {
  if (ask.command) return `execute: ${ask.command}`;
  return `${ask.toolKind ?? 'other'}: ${ask.title}`;
}

export class PermissionRules {
  private readonly rules = new Map<string, AllowedRule>();

  constructor(private readonly changed: () => void) {}

  list(): AllowedRule[] {
    return [...this.rules.values()].map((r) => ({ ...r }));
  }

  /** The person answered `option`: remembered when it is an allow-always. */
  answered(ask: PermissionAsk, option: PermissionOption): void {
    if (option.kind !== 'allow_always') return;
    this.rules.set(ruleKey(ask), { key: ruleKey(ask), optionId: option.optionId, since: Date.now() });
    this.changed();
  }

  /**
   * The option to answer with by a remembered rule, or null (ask the person): the option the
   * person picked if the agent offers it again, else its allow-always, else its allow-once.
   */
  match(ask: PermissionAsk): { rule: AllowedRule; option: PermissionOption } | null {
    const rule = this.rules.get(ruleKey(ask));
    if (!rule) return null;
    const option = ask.options.find((o) => o.optionId === rule.optionId && o.kind.startsWith('allow'))
      ?? ask.options.find((o) => o.kind === 'allow_always')
      ?? ask.options.find((o) => o.kind === 'allow_once');
    return option ? { rule, option } : null;
  }

  /** Forgets one rule (by key), or all of them (no key); says how many went. */
  forget(key?: string): number {
    const before = this.rules.size;
    if (key === undefined) this.rules.clear();
    else this.rules.delete(key);
    const gone = before - this.rules.size;
    if (gone > 0) this.changed();
    return gone;
  }
}
