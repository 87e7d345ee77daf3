// ensure-code-server's progress lines (nothing when quiet), shared with the steps in lib/.
export const say = (quiet) => (msg) => { if (!quiet) console.log(`[ensure-code-server] ${msg}`); };
