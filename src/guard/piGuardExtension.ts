// pi's write guard, bundled alone to dist/pi-guard.js and loaded with `pi -e` (which works even
// under --no-extensions). It may import only from src/core/guard/. The policy comes from the
// host in RPC_WORKERS_GUARD; the decision logic lives in core/guard/piGuard.ts.
import { GUARD_ENV } from '../core/guard/piLaunch';
import { createPiGuard } from '../core/guard/piGuard';

interface ToolCallEvent {
  toolName: string;
  input: unknown;
}
interface PiExtensionApi {
  on(event: 'tool_call', handler: (event: ToolCallEvent, ctx?: { cwd?: string }) => Promise<unknown> | unknown): void;
}

export = function rpcWorkersGuard(pi: PiExtensionApi): void {
  const guard = createPiGuard(process.env[GUARD_ENV]);
  pi.on('tool_call', async (event, ctx) => guard(event.toolName, event.input, ctx?.cwd));
};
