// The setting every test of a real ACP agent needs: the agent installed, the mock model it calls,
// a home and a folder of its own, and a supervisor that allows once whatever the agent asks.
// Registers mocha's before/after hooks in the describe it is called from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PermissionRequest, Supervisor, SupervisorOptions, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { acpAgentLaunch, ensureAcpAgent, type AcpAgentName } from '../fixtures/acp-env.mjs';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';

export interface RealAcpRig {
  readonly name: AcpAgentName;
  mock: MockLlm;
  home: string;
  cwd: string;
  supervisor: Supervisor;
  /** Every question the agent asked, in order (each answered with its allow-once option). */
  readonly asked: PermissionRequest[];
  /** The spec Start Worker gives this agent, plus `extra`. */
  spec(extra?: Partial<WorkerSpec>): WorkerSpec;
}

export interface RealAcpOptions {
  /** Part of the temporary folders' names, so a leftover says which test made it. */
  tag: string;
  /** More of the supervisor's options (its `onPermission` is the rig's). */
  supervisor?: Omit<SupervisorOptions, 'onPermission'>;
  /** Called with the fresh folder before the supervisor exists (files the test needs there). */
  prepare?(cwd: string): void;
}

export function realAcpRig(name: AcpAgentName, options: RealAcpOptions): RealAcpRig {
  const asked: PermissionRequest[] = [];
  const rig = {
    name,
    asked,
    spec(extra: Partial<WorkerSpec> = {}): WorkerSpec {
      const launch = acpAgentLaunch(name, { mockUrl: rig.mock.baseUrl, home: rig.home });
      return {
        dialect: 'acp', command: launch.command, args: launch.args, env: launch.env, cwd: rig.cwd, name: `real ${name}`,
        // As Start Worker's profiles start them: Claude in its default mode, Gemini not offered the
        // host's files (offered them, Gemini 0.61.0 cannot create a new file).
        ...(name === 'claude' ? { mode: 'default' } : {}), ...(name === 'gemini' ? { clientFiles: false } : {}),
        ...extra,
      };
    },
  } as RealAcpRig;

  before(async function () {
    this.timeout(10 * 60_000);
    ensureAcpAgent(name);
    rig.mock = await startMockLlm({ defaultText: 'unscripted' });
    rig.home = mkdtempSync(path.join(tmpdir(), `rpc-acp-${options.tag}-${name}-home-`));
    rig.cwd = mkdtempSync(path.join(tmpdir(), `rpc-acp-${options.tag}-${name}-cwd-`));
    options.prepare?.(rig.cwd);
    // A loaded 2-CPU machine: OpenCode's first session takes 20 s even when idle.
    rig.supervisor = createSupervisor({
      limits: { commandTimeoutMs: 120_000 },
      ...options.supervisor,
      onPermission: async (req) => {
        asked.push(req);
        return { optionId: req.options.find((o) => o.kind === 'allow_once')!.optionId };
      },
    });
  });
  after(async () => {
    await rig.supervisor?.dispose();
    await rig.mock?.close();
    for (const d of [rig.home, rig.cwd]) if (d) rmSync(d, { recursive: true, force: true });
  });
  return rig;
}
