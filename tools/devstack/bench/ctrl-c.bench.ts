import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startChild } from '../src/child-process.js';
import { ROOT } from '../src/paths.js';
import { freePort, isPortFree } from '../src/ports.js';

/**
 * `npm run bench:ctrl-c`: how long `npm start` takes to stop after a terminal's Ctrl-C (SIGINT
 * to its whole process group), with everything of its own: embedded Postgres, the Temporal dev
 * server, every service, the worker and the gateway. Each run gets a throw-away data directory
 * and free ports, so a running `npm start` is not touched. BENCH_RUNS runs (default 3).
 */
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const PORTS = ['POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'GATEWAY_PORT', 'IDENTITY_PORT', 'RECRUITING_PORT', 'INTEGRATIONS_PORT', 'WORKER_PORT'];

const seconds: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  // Under .data, not the 0700 mkdtemp: as root, Postgres runs as the `postgres` user and must reach it.
  const dataDir = join(ROOT, '.data', `bench-ctrl-c-${process.pid}-${run}`);
  mkdirSync(dataDir, { recursive: true });
  const ports: Record<string, string> = {};
  for (const name of PORTS) ports[name] = String(await freePort());
  const lines: string[] = [];
  const launcher = startChild({
    name: 'npm start',
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'tools/devstack/src/start.ts')],
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      NO_COLOR: '1',
      TEMPORAL_CLI: process.env['TEMPORAL_CLI'],
      HIRELOOP_DATA_DIR: dataDir,
      HIRELOOP_RUNTIME_FILE: join(dataDir, 'runtime.json'),
      PUBLIC_BASE_URL: `http://localhost:${ports['GATEWAY_PORT']}`,
      ...ports,
    },
    cwd: ROOT,
    log: (line) => lines.push(line),
    ownGroup: true, // a terminal: the launcher leads the foreground process group
  });
  try {
    const deadline = Date.now() + 300_000;
    while (!lines.some((l) => l.includes('Hireloop is running.'))) {
      if (Date.now() > deadline || launcher.process.exitCode !== null) throw new Error(`npm start did not come up:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const started = performance.now();
    process.kill(-launcher.pid, 'SIGINT');
    const code = await launcher.exited;
    const took = (performance.now() - started) / 1000;
    seconds.push(took);
    const open = [];
    for (const [name, port] of Object.entries(ports)) {
      if (!(await isPortFree(Number(port)))) open.push(name);
    }
    process.stdout.write(`run ${run}: stopped ${took.toFixed(1)} s after Ctrl-C, exit ${code}${open.length ? `, still answering: ${open.join(', ')}` : ''}\n`);
  } finally {
    await launcher.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const sorted = [...seconds].sort((a, b) => a - b);
process.stdout.write(`\nCtrl-C → every process stopped: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} s, max ${sorted.at(-1)!.toFixed(1)} s over ${RUNS} runs\n`);
