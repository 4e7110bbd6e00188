import { existsSync, readFileSync } from 'node:fs';

/** One plain closing line from the TAP file of a test run, whatever the reporter printed above. */
export function printTapSummary(tapFile: string): void {
  if (!existsSync(tapFile)) return;
  const tap = readFileSync(tapFile, 'utf8');
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0);
  process.stdout.write(`\ntests: ${count('pass')} passed, ${count('fail') + count('cancelled')} failed, ${count('skipped')} skipped\n`);
}
