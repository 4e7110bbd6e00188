import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { step } from '@hireloop/devstack/log';
import { ROOT } from '@hireloop/devstack/paths';
import { newOrganization, runBench } from '../bench/bench-kit.js';

/**
 * `npm run fuzz:schemathesis [-- schemathesis run options]`: an independent, OpenAPI-driven fuzzer
 * (schemathesis, Python; not in CI, see docs/reliability.md "Independent fuzzing") against a
 * throw-away stack. It starts the stack, creates an organization with a read/write/admin key and
 * runs `schemathesis run <gateway>/api/v1/openapi.json` with that key and the options given (by
 * default every check, 100 examples per operation, 2 workers, an NDJSON report), in
 * `.data/schemathesis/` (its reports and crash cache land there, next to stack.log); the exit code
 * is schemathesis'. `SCHEMATHESIS` names the executable (default `schemathesis` on PATH).
 * `--serve` instead prints the URL and key and keeps the stack up until Ctrl-C, for runs by hand.
 *
 * Two settings keep the run to what is not documented already (docs/reliability.md): strings hold
 * no U+0000 (`--generation-allow-x00 false`: PRODUCT.md §3 refuses it everywhere, which JSON Schema
 * cannot say), and the hooks of known_not_defects.py drop the failures CLARIFICATIONS lists as
 * not defects, each matched on its check and our error's code and field, and counted in the report.
 */
const DEFAULT_OPTIONS = ['--checks', 'all', '--max-examples', '100', '--workers', '2', '--generation-allow-x00', 'false', '--report', 'ndjson', '--report-dir', 'reports', '--no-color'];
const HOOKS = fileURLToPath(new URL('./known_not_defects.py', import.meta.url));
const DROPPED = 'known-not-defects.txt';
const given = process.argv.slice(2);
const serve = given[0] === '--serve';
const args = given.length ? given : DEFAULT_OPTIONS;
const executable = process.env['SCHEMATHESIS'] ?? 'schemathesis';

await runBench('schemathesis', async (bench) => {
  const organization = await newOrganization(bench, 'schemathesis', ['read', 'write', 'admin']);
  const schemaUrl = `${bench.gatewayUrl}/api/v1/openapi.json`;
  const runArgs = ['run', schemaUrl, '--url', `${bench.gatewayUrl}/api/v1`, '--header', `Authorization: Bearer ${organization.apiKey.key}`, ...args];
  if (serve) {
    step(`Stack up (process output in ${relative(ROOT, `${bench.dataDir}/stack.log`)}); Ctrl-C stops it.`);
    process.stdout.write(`SCHEMA=${schemaUrl}\nBASE=${bench.gatewayUrl}/api/v1\nKEY=${organization.apiKey.key}\n`);
    await new Promise<never>(() => undefined);
  }
  step(`${executable} ${runArgs.map((arg) => (arg.startsWith('Authorization') ? 'Authorization: Bearer <key>' : arg)).join(' ')}`);
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(executable, runArgs, { stdio: 'inherit', cwd: bench.dataDir, env: { ...process.env, SCHEMATHESIS_HOOKS: HOOKS } });
    bench.onCleanup(() => child.kill('SIGTERM'));
    child.on('error', reject);
    child.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  return { report: `schemathesis exited ${code}\n${droppedSummary(join(bench.dataDir, DROPPED))}`, failures: code === 0 ? [] : [`schemathesis reported failures (exit ${code})`] };
});

/** How many failures of each known kind the hooks dropped, by operation: the run's report says so. */
function droppedSummary(file: string): string {
  if (!existsSync(file)) return 'known, not defects: none seen\n';
  const counts = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) counts.set(line, (counts.get(line) ?? 0) + 1);
  return `known, not defects (dropped by gateway/fuzz/known_not_defects.py):\n${[...counts].sort().map(([line, n]) => `  ${line.replace('\t', ': ')} (${n})`).join('\n')}\n`;
}
