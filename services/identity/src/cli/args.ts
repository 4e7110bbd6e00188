/** Minimal `--flag value` parser for the operator CLIs; unknown flags are an error, not ignored. */
export function parseArgs(argv: string[], known: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags[name] = value;
    } else positional.push(arg);
  }
  return { positional, flags };
}

export class UsageError extends Error {}

/** Runs a CLI's main, printing errors as one readable line and exiting non-zero. */
export function runCli(usage: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      if (err instanceof UsageError) process.stderr.write(`error: ${err.message}\n\n${usage}\n`);
      else process.stderr.write(`error: ${(err as Error).message}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
}
