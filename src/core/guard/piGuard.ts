// What pi's guard extension decides for one tool call, kept apart from pi so it can be tested
// without a model. Fails closed: a policy it cannot read blocks every tool that is not read-only.
import { READ_ONLY_TOOLS } from './audit';
import { judgePath, policyFromWire, type ResolvedPolicy } from './policy';
import { formatGuardVeto, SHELL_ALLOWED_BY } from './veto';

export type GuardDecision = { block: true; reason: string } | undefined;
export type PiGuard = (toolName: string, input: unknown, ctxCwd?: string) => GuardDecision;

/** pi's tools that write files, and the argument naming the file. */
const PI_WRITERS: Readonly<Record<string, string>> = { write: 'path', edit: 'path' };

function block(rule: string, detail: string): GuardDecision {
  return { block: true, reason: formatGuardVeto(rule, `${detail} The call was blocked before it ran.`) };
}

function judgeWrite(policy: ResolvedPolicy, toolName: string, raw: unknown, cwds: string[]): GuardDecision {
  for (const cwd of cwds) {
    const v = judgePath(policy, raw, cwd);
    if (!v.allowed) return block(v.rule, `${toolName} to ${JSON.stringify(v.resolved || raw)} is not allowed by the write guard.`);
  }
  return undefined;
}

export function createPiGuard(envValue: string | undefined): PiGuard {
  let parsed: ReturnType<typeof policyFromWire>;
  try {
    parsed = envValue === undefined ? { ok: false, error: 'RPC_WORKERS_GUARD is not set' } : policyFromWire(JSON.parse(envValue));
  } catch (err) {
    parsed = { ok: false, error: `RPC_WORKERS_GUARD is not JSON (${(err as Error).message})` };
  }
  return (toolName, input, ctxCwd) => {
    if (READ_ONLY_TOOLS.has(toolName)) return undefined;
    if (!parsed.ok) return block(`invalid guard policy: ${parsed.error}`, `Every ${toolName} call is blocked until the host passes a valid policy.`);
    const { policy, cwd } = parsed;
    if (toolName === 'bash') {
      return policy.bash ? undefined : block(`bash is off under the guard ${SHELL_ALLOWED_BY}`, 'A shell cannot be confined by path checks.');
    }
    const key = PI_WRITERS[toolName];
    if (key === undefined) return block(`unknown tool ${JSON.stringify(toolName)}`, 'The guard cannot tell what this tool writes.');
    const raw = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
    // pi's tools resolve against their own cwd; if that differs from the host's, both must pass.
    const cwds = [...new Set([cwd, ...(ctxCwd ? [ctxCwd] : [])])];
    return judgeWrite(policy, toolName, raw, cwds);
  };
}
