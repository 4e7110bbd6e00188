import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, waitForHttp, type ChildHandle } from '@hireloop/devstack/child-process';
import { freePort } from '@hireloop/devstack/ports';
import { startStack, type Stack } from '@hireloop/devstack/stack';
import { assembleRuntimeTree, installProductionDependencies, PROCESSES, REPO_ROOT } from '../src/runtime-tree.js';

/**
 * `npm run bench:startup`: start-up time (spawn → /readyz answers 200) and idle RSS of every
 * process, built (`node dist/…` from the runtime tree, production dependencies only) against
 * from source (`node --import tsx src/…`), one process at a time, each RUNS times; against a
 * throw-away stack's Postgres and Temporal (its own processes are not measured). Run `npm run
 * build` first. Prints a Markdown table.
 */
const RUNS = Number(process.env['BENCH_RUNS'] ?? 3);
const IDLE_MS = 5000;

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let stack: Stack | null = null;
const tree = mkdtempSync(join(tmpdir(), 'hireloop-bench-runtime-'));
try {
  const dataDir = join(REPO_ROOT, '.data', 'bench-startup');
  rmSync(dataDir, { recursive: true, force: true });
  stack = await startStack({ mode: 'test', dataDir, env: { ...process.env, LOG_LEVEL: 'warn' }, log: () => () => undefined });
  assembleRuntimeTree(tree);
  installProductionDependencies(tree);

  const rows: string[] = [];
  for (const p of PROCESSES) {
    const results: Record<'built' | 'source', { ms: number[]; rss: number[] }> = { built: { ms: [], rss: [] }, source: { ms: [], rss: [] } };
    for (let run = 0; run < RUNS; run++) {
      for (const variant of ['built', 'source'] as const) {
        const port = await freePort();
        // The other processes stay the stack's: this one gets its own port and task queue.
        const env = { ...process.env, ...stack.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', [p.portEnv]: String(port), TEMPORAL_TASK_QUEUE: `bench-startup-${process.pid}` };
        const args = variant === 'built' ? ['--enable-source-maps', p.entry] : ['--import', 'tsx', p.entry.replace('/dist/', '/src/').replace(/\.js$/, '.ts')];
        const started = performance.now();
        const child: ChildHandle = startChild({ name: p.name, command: process.execPath, args, env, cwd: variant === 'built' ? tree : REPO_ROOT, log: () => undefined });
        try {
          await waitForHttp(`http://127.0.0.1:${port}/readyz`, child, 120_000);
          results[variant].ms.push(performance.now() - started);
          await new Promise((r) => setTimeout(r, IDLE_MS));
          results[variant].rss.push(rssKb(child.pid) / 1024);
        } finally {
          await child.stop();
        }
      }
    }
    const b = results.built;
    const s = results.source;
    rows.push(`| ${p.name} | ${Math.round(median(b.ms))} | ${Math.round(median(s.ms))} | ${Math.round(median(b.rss))} | ${Math.round(median(s.rss))} |`);
  }
  process.stdout.write(
    [
      `Median of ${RUNS} runs; RSS ${IDLE_MS / 1000} s after ready, no traffic.`,
      '',
      '| process | start → ready, built (ms) | from source, tsx (ms) | idle RSS, built (MiB) | from source (MiB) |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await stack?.stop();
  rmSync(tree, { recursive: true, force: true });
}
process.exit(0);
