/**
 * Every process of the platform the launcher starts, in one table: its entry file, the port it
 * listens on (every process answers /readyz there) and the env var that carries the port.
 */
export interface ServiceSpec {
  name: string;
  entry: string;
  portEnv: string;
  urlEnv?: string;
  defaultPort: number;
}

export const SERVICES: ServiceSpec[] = [
  { name: 'identity', entry: 'services/identity/src/index.ts', portEnv: 'IDENTITY_PORT', urlEnv: 'IDENTITY_URL', defaultPort: 3101 },
  { name: 'recruiting', entry: 'services/recruiting/src/index.ts', portEnv: 'RECRUITING_PORT', urlEnv: 'RECRUITING_URL', defaultPort: 3102 },
  { name: 'integrations', entry: 'services/integrations/src/index.ts', portEnv: 'INTEGRATIONS_PORT', urlEnv: 'INTEGRATIONS_URL', defaultPort: 3103 },
  { name: 'worker', entry: 'workflows/src/worker.ts', portEnv: 'WORKER_PORT', defaultPort: 3109 },
  { name: 'gateway', entry: 'gateway/src/index.ts', portEnv: 'GATEWAY_PORT', defaultPort: 3000 },
];
