import { rethrowServiceError } from '@hireloop/platform';
import { machineDescription, percentile, runBench } from './bench-kit.js';

/**
 * `npm run bench:login`: how long POST /auth/login takes for a known e-mail and for an unknown
 * one (the gap that told an attacker which accounts exist), median of 20 each, one request at a
 * time, interleaved so that other load on the machine hits both alike. The throttle is out of
 * reach (the stack runs in test mode).
 */
const ROUNDS = 20;
const WARMUP = 3;
const PASSWORD = 'benchmark password 1';

await runBench('bench-login', async (bench) => {
  const org = await bench.identity.system.organizations.create.mutate({ name: 'Login bench' }).catch(rethrowServiceError);
  const email = `bench-${Date.now().toString(36)}@example.test`;
  await bench.identity.system.users.create.mutate({ organizationId: org.id, email, name: 'Bench', password: PASSWORD }).catch(rethrowServiceError);

  const cases = {
    'known e-mail, wrong password': { email, password: 'wrong password', status: 401 },
    'unknown e-mail': { email: `nobody-${Date.now().toString(36)}@example.test`, password: 'wrong password', status: 401 },
    'known e-mail, right password': { email, password: PASSWORD, status: 200 },
  };
  const timings = Object.fromEntries(Object.keys(cases).map((name) => [name, [] as number[]]));
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [name, c] of Object.entries(cases)) {
      const started = performance.now();
      const res = await fetch(`${bench.gatewayUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: c.email, password: c.password }),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== c.status) throw new Error(`${name}: expected ${c.status}, got ${res.status}`);
      if (round >= WARMUP) timings[name]!.push(ms);
    }
  }

  const median = (name: string) => percentile(timings[name]!, 50);
  const known = median('known e-mail, wrong password');
  const unknown = median('unknown e-mail');
  return [
    `Command: \`npm run bench:login\` (${ROUNDS} logins per case after ${WARMUP} warm-up, sequential, interleaved, loopback)`,
    `Date: ${bench.startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    '| case | median ms | p90 ms | min ms | max ms |',
    '|---|---:|---:|---:|---:|',
    ...Object.keys(cases).map((name) => {
      const t = timings[name]!;
      return `| ${name} | ${median(name).toFixed(1)} | ${percentile(t, 90).toFixed(1)} | ${Math.min(...t).toFixed(1)} | ${Math.max(...t).toFixed(1)} |`;
    }),
    '',
    `Unknown vs known e-mail (wrong password): ${((unknown / known - 1) * 100).toFixed(1)} % difference of medians.`,
    '',
  ].join('\n');
});
