/** Launcher output: short, prefixed lines so progress is visible and never a silent wait. */
const COLORS = [36, 35, 33, 32, 34, 91, 96, 95];
const useColor = process.stdout.isTTY && !process.env['NO_COLOR'];

export function step(message: string): void {
  process.stdout.write(`${useColor ? '\x1b[1m▸\x1b[0m' : '>'} ${message}\n`);
}

export function warn(message: string): void {
  process.stderr.write(`${useColor ? '\x1b[33m!\x1b[0m' : '!'} ${message}\n`);
}

export function prefixer(name: string, index: number): (line: string) => string {
  const label = name.padEnd(12);
  const color = COLORS[index % COLORS.length];
  return (line) => (useColor ? `\x1b[${color}m${label}\x1b[0m│ ${line}` : `${label}| ${line}`);
}

/** Shows that a long step is still moving: a dot every couple of seconds. */
export async function withProgress<T>(message: string, work: Promise<T>): Promise<T> {
  const started = Date.now();
  process.stdout.write(`${useColor ? '\x1b[1m▸\x1b[0m' : '>'} ${message} `);
  const timer = setInterval(() => process.stdout.write('.'), 2000);
  try {
    const result = await work;
    process.stdout.write(` done (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    return result;
  } catch (err) {
    process.stdout.write(' failed\n');
    throw err;
  } finally {
    clearInterval(timer);
  }
}
