// `npm start`'s options. npm takes an option written before `--` as its own config and hands it
// to the script only in its environment: `npm start --port=9000` arrives as npm_config_port=9000
// and no argument, `npm start --port 9000` as npm_config_port=true and a bare "9000", and
// `npm start --no-build` as npm_config_build="". Read as meant, not ignored (8080, a build).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const USAGE = 'options: --port N, --workspace DIR, --no-build; through npm: npm start -- --port N';

export function parseStartArgs(argv, env = process.env) {
  const o = { port: env.RPC_WORKERS_PORT || null, workspace: null, build: env.npm_config_build !== '' && env.npm_config_build !== 'false' };
  const npmPort = env.npm_config_port;
  if (npmPort && npmPort !== 'true') o.port = npmPort;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') o.port = argv[++i];
    else if (a.startsWith('--port=')) o.port = a.slice(7);
    else if (a === '--workspace') o.workspace = resolve(argv[++i] ?? '');
    else if (a.startsWith('--workspace=')) o.workspace = resolve(a.slice(12));
    else if (a === '--no-build') o.build = false;
    // `npm start --port 9000`: npm kept --port, its value came through alone.
    else if (npmPort === 'true' && /^\d+$/.test(a)) o.port = a;
    else throw new Error(`unknown argument: ${a} (${USAGE})`);
  }
  if (o.port != null) {
    o.port = Number(o.port);
    if (!Number.isInteger(o.port) || o.port <= 0 || o.port > 65535) throw new Error(`not a port: ${o.port}`);
  }
  if (o.workspace && !(existsSync(o.workspace) && statSync(o.workspace).isDirectory())) throw new Error(`not a folder: ${o.workspace}`);
  return o;
}
