import { join } from 'node:path';
import { LAUNCHER_LIFELINE_ENV } from '@hireloop/platform';
import { startChild, waitForHttp, type ChildHandle } from './child-process.js';
import { prefixer, step, withProgress } from './log.js';
import { ROOT } from './paths.js';
import { freePort, requirePort } from './ports.js';
import { checkDatabase, startEmbeddedPostgres, type PostgresHandle } from './postgres.js';
import { DATABASE_SERVICES, databaseUrlEnv, ensureServiceRoles } from './database-roles.js';
import { keySettings, localSecrets } from './secrets.js';
import { SERVICES } from './services.js';
import { findOrInstallTemporalCli } from './temporal-cli.js';
import { startTemporalDevServer, TemporalPortTaken, waitForTemporal, type TemporalHandle } from './temporal-server.js';

export interface StackOptions {
  /** `start`: fixed, well-known ports, data kept. `test`: free ports, throw-away data, fast Postgres. */
  mode: 'start' | 'test';
  dataDir: string;
  /** Overrides from the environment: DATABASE_URL, TEMPORAL_ADDRESS, ports, LOG_LEVEL… */
  env: NodeJS.ProcessEnv;
  /** Where process output goes; `start` prints it, `test` keeps it in a file. */
  log: (name: string, index: number) => (line: string) => void;
  /** Server settings of the embedded Postgres (benchmarks: `shared_preload_libraries`…). */
  postgresSettings?: Record<string, string>;
}

export interface Stack {
  env: Record<string, string>;
  urls: { api: string; reference: string; console: string; temporalUi: string; gateway: string };
  temporalCli: string;
  children: ChildHandle[];
  stop: () => Promise<void>;
  /** Starts one more process of the platform with the stack's env (tests: a second gateway). */
  startProcess: (name: string, entry: string, extraEnv: Record<string, string>) => Promise<ChildHandle>;
}

/**
 * Ports this process has handed out for test stacks. The OS may give the same free port to two
 * calls in a row (each probe closes its socket at once), and two processes of one stack on one
 * port cost a whole test run (a worker that cannot listen exits).
 */
const handedOut = new Set<number>();

async function port(env: NodeJS.ProcessEnv, name: string, fallback: number, mode: StackOptions['mode'], what: string): Promise<number> {
  if (env[name]) return Number(env[name]);
  if (mode === 'test') {
    for (;;) {
      const free = await freePort();
      if (handedOut.has(free)) continue;
      handedOut.add(free);
      return free;
    }
  }
  await requirePort(fallback, what, name);
  return fallback;
}

/** Brings the whole platform up: database, Temporal, every service, the worker and the gateway. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const { env: given, mode, dataDir } = options;
  const cleanups: Array<() => Promise<void>> = [];
  const children: ChildHandle[] = [];
  const stop = async () => {
    for (const child of [...children].reverse()) await child.stop();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const secrets = localSecrets(dataDir);
    const env: Record<string, string> = {
      NODE_ENV: given['NODE_ENV'] ?? (mode === 'test' ? 'test' : 'development'),
      LOG_LEVEL: given['LOG_LEVEL'] ?? (mode === 'test' ? 'warn' : 'info'),
      ...keySettings(given, secrets),
    };

    // Database
    let postgres: PostgresHandle | null = null;
    if (given['DATABASE_URL']) {
      await withProgress('Checking the database at DATABASE_URL', checkDatabase(given['DATABASE_URL']));
      env['DATABASE_URL'] = given['DATABASE_URL'];
    } else {
      const pgPort = await port(given, 'POSTGRES_PORT', 5433, mode, 'embedded Postgres');
      const pgLog = options.log('postgres', 0);
      postgres = await withProgress(
        `Starting embedded Postgres on 127.0.0.1:${pgPort} (data in ${join(dataDir, 'postgres')})`,
        startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: pgPort, fast: mode === 'test', settings: options.postgresSettings, onLog: pgLog }),
      );
      cleanups.push(postgres.stop);
      env['DATABASE_URL'] = postgres.url;
    }
    // Each service connects as its own role; per-service URLs given in the environment win.
    const ownUrls = DATABASE_SERVICES.map((s) => given[databaseUrlEnv(s)]);
    if (ownUrls.every(Boolean)) {
      DATABASE_SERVICES.forEach((s, i) => (env[databaseUrlEnv(s)] = ownUrls[i]!));
    } else {
      const urls = await withProgress("Creating each service's database role", ensureServiceRoles(env['DATABASE_URL'], secrets.databasePasswords));
      DATABASE_SERVICES.forEach((s, i) => (env[databaseUrlEnv(s)] = ownUrls[i] ?? urls[s]));
    }

    // Temporal
    const temporalCli = await findOrInstallTemporalCli(given['TEMPORAL_CLI']);
    let temporal: TemporalHandle | null = null;
    let temporalUi = given['TEMPORAL_UI_URL'] ?? '';
    if (given['TEMPORAL_ADDRESS']) {
      await withProgress(`Checking Temporal at ${given['TEMPORAL_ADDRESS']}`, waitForTemporal(temporalCli, given['TEMPORAL_ADDRESS'], 15_000));
      env['TEMPORAL_ADDRESS'] = given['TEMPORAL_ADDRESS'];
    } else {
      // A test stack's ports are free when picked, but a connection of another process can take
      // one (they come from the same ephemeral range) before the dev server binds it: it then
      // exits at once saying so, and a test stack tries again on other ports (any other exit,
      // Ctrl-C's among them, ends the start).
      const fixedPorts = mode === 'start' || Boolean(given['TEMPORAL_PORT'] || given['TEMPORAL_UI_PORT']);
      for (let attempt = 1; !temporal; attempt++) {
        const tPort = await port(given, 'TEMPORAL_PORT', 7233, mode, 'Temporal frontend');
        const uiPort = await port(given, 'TEMPORAL_UI_PORT', 8233, mode, 'Temporal UI');
        try {
          temporal = await withProgress(
            `Starting the Temporal dev server on 127.0.0.1:${tPort} (UI on :${uiPort})`,
            startTemporalDevServer({ cli: temporalCli, dataDir: join(dataDir, 'temporal'), port: tPort, uiPort, log: options.log('temporal', 1), ownGroup: mode === 'start', fast: mode === 'test' }),
          );
        } catch (err) {
          if (fixedPorts || attempt === 3 || !(err instanceof TemporalPortTaken)) throw err;
        }
      }
      cleanups.push(temporal.stop);
      env['TEMPORAL_ADDRESS'] = temporal.address;
      temporalUi = temporal.uiUrl;
    }
    env['TEMPORAL_UI_URL'] = temporalUi;

    // Services: ports first, so every process knows every other's URL.
    for (const spec of SERVICES) {
      const p = await port(given, spec.portEnv, spec.defaultPort, mode, spec.name);
      env[spec.portEnv] = String(p);
      if (spec.urlEnv) env[spec.urlEnv] = `http://127.0.0.1:${p}`;
    }
    const gatewayUrl = `http://localhost:${env['GATEWAY_PORT']}`;
    env['PUBLIC_BASE_URL'] = given['PUBLIC_BASE_URL'] ?? gatewayUrl;
    env['WEBHOOK_ALLOW_LOOPBACK'] = given['WEBHOOK_ALLOW_LOOPBACK'] ?? 'true';
    // Tests watch the expiry sweep and webhook retries happen; short periods keep them fast.
    if (mode === 'test') {
      env['EXPIRY_SWEEP_SECONDS'] = given['EXPIRY_SWEEP_SECONDS'] ?? '2';
      // Long enough that a starved CI machine does not refuse ordinary writes; sync tests wait 2× this.
      env['SYNC_COMMIT_WINDOW_MS'] = given['SYNC_COMMIT_WINDOW_MS'] ?? '3000';
      env['WEBHOOK_RETRY_SCHEDULE'] = given['WEBHOOK_RETRY_SCHEDULE'] ?? '1s,1s,2s,2s,2s,2s,2s';
      // Every test logs in from 127.0.0.1 and the hostile-input suite fails logins by the hundred;
      // the throttling tests start an identity service of their own with small limits.
      env['LOGIN_MAX_FAILURES'] = given['LOGIN_MAX_FAILURES'] ?? '100000';
      env['LOGIN_MAX_FAILURES_PER_IP'] = given['LOGIN_MAX_FAILURES_PER_IP'] ?? '1000000';
    }

    const launch = async (name: string, entry: string, extraEnv: Record<string, string>, index: number) => {
      const child = startChild({
        name,
        command: process.execPath,
        args: ['--import', 'tsx', join(ROOT, entry)],
        env: { ...process.env, ...env, ...extraEnv, [LAUNCHER_LIFELINE_ENV]: '1' },
        cwd: ROOT,
        log: options.log(name, index),
        ownGroup: mode === 'start',
        // A launcher killed outright (SIGKILL, out of memory) takes its services with it: left
        // running, they held their ports and the next `npm start` failed on them.
        lifeline: true,
      });
      children.push(child);
      return child;
    };
    const started = await Promise.all(SERVICES.map((spec, i) => launch(spec.name, spec.entry, {}, i + 2)));
    await withProgress(
      `Starting ${SERVICES.map((s) => s.name).join(', ')}`,
      Promise.all(SERVICES.map((spec, i) => waitForHttp(`http://127.0.0.1:${env[spec.portEnv]}/readyz`, started[i]!, 90_000))),
    );

    return {
      env,
      urls: {
        gateway: gatewayUrl,
        api: `${gatewayUrl}/api/v1`,
        reference: `${gatewayUrl}/developers/reference`,
        console: `${gatewayUrl}/console/`,
        temporalUi,
      },
      temporalCli,
      children,
      stop,
      startProcess: async (name, entry, extraEnv) => {
        const child = await launch(name, entry, extraEnv, children.length + 2);
        const portVar = Object.keys(extraEnv).find((k) => k.endsWith('_PORT'));
        if (portVar) await waitForHttp(`http://127.0.0.1:${extraEnv[portVar]}/readyz`, child, 60_000);
        return child;
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export { step, prefixer };
