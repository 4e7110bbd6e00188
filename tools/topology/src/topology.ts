import { join } from 'node:path';
import { startChild, waitForHttp, type ChildHandle } from '@hireloop/devstack/child-process';
import { databaseUrlEnv, ensureServiceRoles, type DatabaseService } from '@hireloop/devstack/database-roles';
import { freePort } from '@hireloop/devstack/ports';
import { startEmbeddedPostgres, type PostgresHandle } from '@hireloop/devstack/postgres';
import { keySettings, localSecrets } from '@hireloop/devstack/secrets';
import { findOrInstallTemporalCli } from '@hireloop/devstack/temporal-cli';
import { startTemporalDevServer, type TemporalHandle } from '@hireloop/devstack/temporal-server';
import { PROCESSES } from '@hireloop/build/runtime-tree';
import { startBalancer, type Balancer } from './balancer.js';

/**
 * Production's shape on one machine, all from the runtime tree (`node dist/…`, NODE_ENV=production,
 * production dependencies only): one Postgres with each service under its own role, the Temporal
 * dev server, and N instances of every process — gateways, identity, recruiting, integrations and
 * workers. Each service's instances sit behind one address (a balancer, as a Compose service name
 * is), which the gateways, the other services and the workers use. The topology and fault tests
 * start one, and every part can be stopped, killed, paused and started again.
 */
export type Role = (typeof PROCESSES)[number]['name'];

export interface TopologyProcess {
  /** `gateway-1`, `identity-2`… */
  name: string;
  role: Role;
  port: number;
  /** Its own URL (for a service, the balancer's URL is `Topology.serviceUrls[role]`). */
  url: string;
  /** The running process, or null while it is stopped. */
  child: ChildHandle | null;
  /** Starts it (again, on the same port) and waits for /readyz. */
  start: () => Promise<void>;
  /** SIGTERM and wait (SIGKILL after `graceMs`). */
  stop: (graceMs?: number) => Promise<void>;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT…) without waiting. */
  signal: (signal: NodeJS.Signals) => void;
}

export interface Topology {
  /** The settings every process got (keys, Temporal address, service URLs…). */
  env: Record<string, string>;
  /** A superuser connection to the database (tests read every schema with it). */
  databaseUrl: string;
  /** One URL per gateway, in order. */
  gateways: string[];
  /** identity, recruiting, integrations: the balanced address of each. */
  serviceUrls: Record<string, string>;
  balancers: Record<string, Balancer>;
  processes: TopologyProcess[];
  process: (name: string) => TopologyProcess;
  postgres: { pid: () => number; stop: () => Promise<void>; start: () => Promise<void> };
  temporal: { address: string; cli: string; stop: () => Promise<void>; start: () => Promise<void> };
  /** Every process in reverse dependency order, then Temporal, then Postgres. */
  stop: () => Promise<void>;
}

export interface TopologyOptions {
  /** A runtime tree (tools/build/src/runtime-tree.ts `prepareRuntimeTree`). */
  tree: string;
  /** Postgres and Temporal data and the secrets; throw-away. */
  dataDir: string;
  /** Instances of each process; 2 unless told. */
  instances?: number;
  /** More settings for every process (retry schedules, log level…). */
  env?: Record<string, string>;
  /** Settings for the processes of one role only. */
  roleEnv?: Partial<Record<Role, Record<string, string>>>;
  /** Settings for one process only, by name (`worker-1`: `WORKER_LANES=deliveries` makes it the delivery worker). */
  processEnv?: Record<string, Record<string, string>>;
  /** Every output line of every process. */
  log?: (processName: string, line: string) => void;
}

const SERVICE_ROLES = ['identity', 'recruiting', 'integrations'] as const;
/** The Postgres role each process connects as (the worker purges the gateway's records as the gateway). */
const DATABASE_ROLE: Record<Role, DatabaseService> = { identity: 'identity', recruiting: 'recruiting', integrations: 'integrations', gateway: 'gateway', worker: 'gateway' };

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const instances = options.instances ?? 2;
  const log = options.log ?? (() => undefined);
  const cleanups: Array<() => Promise<void>> = [];
  const processes: TopologyProcess[] = [];
  const stopAll = async () => {
    for (const p of [...processes].reverse()) await p.stop().catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const secrets = localSecrets(options.dataDir);
    // Every port up front and each once: a port picked later (a balancer's) could be one already
    // promised to a process that has not started listening yet.
    const taken = new Set<number>();
    const freshPort = async () => {
      for (;;) {
        const port = await freePort();
        if (!taken.has(port)) {
          taken.add(port);
          return port;
        }
      }
    };

    // One Postgres, each service under its own role.
    const pgPort = await freshPort();
    const startPostgres = () => startEmbeddedPostgres({ dataDir: join(options.dataDir, 'postgres'), port: pgPort, fast: true, onLog: (l) => log('postgres', l) });
    let postgres: PostgresHandle | null = await startPostgres();
    const databaseUrl = postgres.url;
    cleanups.push(async () => {
      await postgres?.stop();
      postgres = null;
    });
    const roleUrls = await ensureServiceRoles(databaseUrl, secrets.databasePasswords);

    // The Temporal dev server.
    const cli = await findOrInstallTemporalCli(process.env['TEMPORAL_CLI']);
    const tPort = await freshPort();
    const uiPort = await freshPort();
    const startTemporal = () => startTemporalDevServer({ cli, dataDir: join(options.dataDir, 'temporal'), port: tPort, uiPort, log: (l) => log('temporal', l) });
    let temporal: TemporalHandle | null = await startTemporal();
    cleanups.push(async () => {
      await temporal?.stop();
      temporal = null;
    });

    // Ports first, so every process knows every address; a balancer per service.
    const ports = new Map<string, number>();
    for (const p of PROCESSES) for (let i = 1; i <= instances; i++) ports.set(`${p.name}-${i}`, await freshPort());
    const balancerPorts = new Map<string, number>();
    for (const role of SERVICE_ROLES) balancerPorts.set(role, await freshPort());
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      TEMPORAL_ADDRESS: temporal.address,
      ...keySettings({}, secrets),
      ...options.env,
    };
    const balancers: Record<string, Balancer> = {};
    const serviceUrls: Record<string, string> = {};
    for (const role of SERVICE_ROLES) {
      const spec = PROCESSES.find((p) => p.name === role)!;
      const backendPorts = Array.from({ length: instances }, (_, i) => ports.get(`${role}-${i + 1}`)!);
      balancers[role] = await startBalancer(() => backendPorts, balancerPorts.get(role));
      cleanups.push(balancers[role].close);
      serviceUrls[role] = balancers[role].url;
      if ('urlEnv' in spec) env[spec.urlEnv] = balancers[role].url;
    }
    const gateways = Array.from({ length: instances }, (_, i) => `http://127.0.0.1:${ports.get(`gateway-${i + 1}`)}`);
    env['PUBLIC_BASE_URL'] ??= gateways[0]!;

    for (const spec of PROCESSES) {
      for (let i = 1; i <= instances; i++) {
        const name = `${spec.name}-${i}`;
        const port = ports.get(name)!;
        const url = `http://127.0.0.1:${port}`;
        const processEnv = {
          PATH: process.env['PATH']!,
          ...env,
          [spec.portEnv]: String(port),
          [databaseUrlEnv(DATABASE_ROLE[spec.name])]: roleUrls[DATABASE_ROLE[spec.name]],
          ...options.roleEnv?.[spec.name],
          ...options.processEnv?.[name],
        };
        const entry: TopologyProcess = {
          name,
          role: spec.name,
          port,
          url,
          child: null,
          start: async () => {
            const child = startChild({ name, command: process.execPath, args: ['--enable-source-maps', spec.entry], env: processEnv, cwd: options.tree, log: (l) => log(name, l) });
            entry.child = child;
            void child.exited.then(() => {
              if (entry.child === child) entry.child = null;
            });
            await waitForHttp(`${url}/readyz`, child, 90_000);
          },
          stop: async (graceMs) => {
            await entry.child?.stop(graceMs);
            entry.child = null;
          },
          signal: (signal) => entry.child?.process.kill(signal),
        };
        processes.push(entry);
      }
    }
    // All at once, as a deploy would: each service's migrations take Kysely's lock, and readiness
    // waits for the dependencies.
    await Promise.all(processes.map((p) => p.start()));

    return {
      env,
      databaseUrl,
      gateways,
      serviceUrls,
      balancers,
      processes,
      process: (name) => {
        const found = processes.find((p) => p.name === name);
        if (!found) throw new Error(`no process ${name} in the topology`);
        return found;
      },
      postgres: {
        pid: () => postgres?.pid ?? 0,
        stop: async () => {
          await postgres?.stop();
          postgres = null;
        },
        start: async () => {
          postgres ??= await startPostgres();
        },
      },
      temporal: {
        address: temporal.address,
        cli,
        stop: async () => {
          await temporal?.stop();
          temporal = null;
        },
        start: async () => {
          temporal ??= await startTemporal();
        },
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
