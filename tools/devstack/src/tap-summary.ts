import { existsSync, readFileSync } from 'node:fs';

/** One plain closing line from the TAP file of a test run, whatever the reporter printed above. */
export function printTapSummary(tapFile: string): void {
  if (!existsSync(tapFile)) return;
  const tap = readFileSync(tapFile, 'utf8');
  // A run that ended before the reporter's closing counts (a failure in a suite's hooks, an exit)
  // must not read as "0 failed".
  if (!/^# tests \d+$/m.test(tap)) {
    const notOk = (tap.match(/^\s*not ok \d+/gm) ?? []).length;
    process.stdout.write(`\ntests: the run ended before its closing counts; ${notOk} "not ok" line(s) in ${tapFile}\n`);
    return;
  }
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  process.stdout.write(`\ntests: ${count('pass')} passed, ${count('fail') + count('cancelled')} failed, ${count('skipped')} skipped\n`);
}
