// What the event log says with no worker to show. In an untrusted workspace no worker starts
// (ui/settings/trust.ts), so telling the person to start one would send them to a refusal.

export function emptyLogHint(untrusted: boolean): string {
  return untrusted
    ? 'No worker selected. Workers do not start here because this workspace is not trusted (a worker runs programs with your permissions). To trust it, run "Workspaces: Manage Workspace Trust" from the Command Palette.'
    : 'No worker selected. Start one from the Sessions view or the Command Palette ("RPC Workers: Start Demo Worker").';
}
