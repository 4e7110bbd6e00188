import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildHandle {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop: (graceMs?: number) => Promise<void>;
}

export function startChild(options: {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  log: (line: string) => void;
  /**
   * Its own process group: a terminal's Ctrl-C (SIGINT to the foreground group) then reaches only
   * the launcher, which stops its children in dependency order instead of all at once.
   */
  ownGroup?: boolean;
  /** The signal `stop` sends first (SIGTERM unless the program wants another, as Postgres SIGINT). */
  stopSignal?: NodeJS.Signals;
  uid?: number;
  gid?: number;
  /**
   * Gives the child a stdin pipe that this process holds open and never writes: when this process
   * dies, even by SIGKILL, the pipe closes and the child sees its end (stopWhenLauncherDies).
   */
  lifeline?: boolean;
}): ChildHandle {
  const child = spawn(options.command, options.args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: [options.lifeline ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    detached: options.ownGroup ?? false,
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', options.log);
  }
  let exitedAlready = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedAlready = true;
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      exitedAlready = true;
      options.log(`failed to start: ${err.message}`);
      resolve('error');
    });
  });
  return {
    name: options.name,
    pid: child.pid ?? 0,
    process: child,
    exited,
    stop: async (graceMs = 8000) => {
      if (exitedAlready) return;
      child.kill(options.stopSignal ?? 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls an HTTP endpoint until it answers 2xx, the child dies, or the timeout passes. */
export async function waitForHttp(url: string, child: ChildHandle | null, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead: number | string | null = null;
  void child?.exited.then((code) => (dead = code));
  for (;;) {
    if (dead !== null) throw new Error(`${child?.name} exited (${dead}) before ${url} was ready; see its log lines above.`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} was not ready after ${timeoutMs / 1000} s.`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
