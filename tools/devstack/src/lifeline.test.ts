import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT } from './paths.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A launcher (a node process that starts a "service" with a lifeline, as stack.ts does) killed
 * with SIGKILL: the service stops through its own SIGTERM handler instead of living on.
 */
describe('a service started with a lifeline (stopWhenLauncherDies)', () => {
  it('stops when its launcher is SIGKILLed, by its own SIGTERM handler', async () => {
    const service = `
      import { stopWhenLauncherDies } from '@hireloop/platform';
      process.on('SIGTERM', () => { process.stdout.write('stopped by SIGTERM\\n'); process.exit(0); });
      stopWhenLauncherDies();
      setInterval(() => {}, 1000);
      process.stdout.write('ready\\n');`;
    const launcher = `
      import { startChild } from './tools/devstack/src/child-process.ts';
      import { LAUNCHER_LIFELINE_ENV } from '@hireloop/platform';
      const child = startChild({ name: 's', command: process.execPath, args: ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(service)}],
        env: { ...process.env, [LAUNCHER_LIFELINE_ENV]: '1' }, cwd: ${JSON.stringify(ROOT)}, lifeline: true, ownGroup: true,
        log: (line) => { if (line === 'ready') console.log('child ' + child.pid); } });`;
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', launcher], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const childPid = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /child (\d+)/.exec(out);
        if (m) {
          clearInterval(timer);
          resolve(Number(m[1]));
        }
      }, 50);
      proc.once('exit', () => reject(new Error(`launcher exited early: ${out}`)));
    });
    assert.ok(isAlive(childPid), 'the service runs');
    proc.kill('SIGKILL');
    await once(proc, 'exit');
    // Polled, not timed: it goes once the pipe's end reaches it.
    for (let i = 0; i < 600 && isAlive(childPid); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(isAlive(childPid), false, 'the service stopped with its launcher');
  });

  it('does nothing without the flag, or when stdin is not a pipe', async () => {
    const script = `import { stopWhenLauncherDies } from '@hireloop/platform'; stopWhenLauncherDies(); setTimeout(() => process.stdout.write('still running'), 300);`;
    for (const [env, stdin] of [[{}, 'pipe'], [{ HIRELOOP_LAUNCHER_LIFELINE: '1' }, 'ignore']] as const) {
      const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(ROOT), env: { ...process.env, ...env }, stdio: [stdin, 'pipe', 'inherit'] });
      let out = '';
      proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      if (stdin === 'pipe') proc.stdin?.end();
      await once(proc, 'exit');
      assert.equal(out, 'still running', JSON.stringify(env));
    }
  });
});
