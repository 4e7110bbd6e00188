import { readdirSync, readFileSync } from 'node:fs';

/** A process and every process under it, read from /proc (Postgres' backends under the postmaster). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* ended meanwhile */
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** Sends `signal` to a process tree; with SIGCONT, also to `known` (pids read while it was running). */
export function signalTree(pid: number, signal: NodeJS.Signals, known: number[] = []): number[] {
  const pids = [...new Set([...known, ...processTree(pid)])];
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {
      /* ended meanwhile */
    }
  }
  return pids;
}
