// `npm start`'s options. npm takes an option written before `--` as its own config and hands it
// to the script only in its environment: `npm start --port=9000` arrives as npm_config_port=9000
// and no argument, `npm start --port 9000` as npm_config_port=true and a bare "9000", and
// `npm start --no-build` as npm_config_build="". Read as meant, not ignored (8080, a build).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const USAGE = 'options: --port N, --workspace DIR, --no-build; through npm: npm start -- --port N';

export function parseStartArgs(argv, env = process.env) {
  const o = { port: env.RPC_WORKERS_PORT || null, workspace: null, build: env.npm_config_build !== '' && env.npm_config_build !== 'false' };
  // Where the port was given, for the error that names a wrong one as it was typed.
  let portFrom = 'RPC_WORKERS_PORT';
  const npmPort = env.npm_config_port;
  if (npmPort && npmPort !== 'true') [o.port, portFrom] = [npmPort, 'npm start --port'];
  // An option left last without its value would otherwise be no option at all (8080, or this folder).
  const value = (i, name) => {
    if (i >= argv.length) throw new Error(`${name} needs a value (${USAGE})`);
    return argv[i];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') [o.port, portFrom] = [value(++i, '--port'), '--port'];
    else if (a.startsWith('--port=')) [o.port, portFrom] = [a.slice(7), '--port'];
    else if (a === '--workspace') o.workspace = resolve(value(++i, '--workspace'));
    else if (a.startsWith('--workspace=')) o.workspace = resolve(a.slice(12));
    else if (a === '--no-build') o.build = false;
    // `npm start --port 9000`: npm kept --port, its value came through alone.
    else if (npmPort === 'true' && /^\d+$/.test(a)) [o.port, portFrom] = [a, 'npm start --port'];
    else throw new Error(`unknown argument: ${a} (${USAGE})`);
  }
  if (o.port != null) {
    // Said as typed: Number() of a word is NaN, which names nothing the person wrote.
    const typed = o.port;
    o.port = /^\d+$/.test(typed) ? Number(typed) : NaN;
    if (!Number.isInteger(o.port) || o.port <= 0 || o.port > 65535) throw new Error(`not a port: ${typed} (${portFrom} takes a number from 1 to 65535)`);
  }
  if (o.workspace && !(existsSync(o.workspace) && statSync(o.workspace).isDirectory())) throw new Error(`not a folder: ${o.workspace}`);
  return o;
}
