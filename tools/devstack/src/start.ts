import { rmSync } from 'node:fs';
import { runtimeFilePath, writeRuntimeInfo } from '@hireloop/platform';
import { bootstrapDemo } from './bootstrap.js';
import { prefixer, step, warn } from './log.js';
import { DATA_DIR } from './paths.js';
import { localSecrets } from './secrets.js';
import { startStack, type Stack } from './stack.js';
import { onStopSignal } from './signals.js';
import { ensureConsoleBuilt } from './console-build.js';

// `npm start`: the whole platform on one machine, with embedded defaults.
// Where the CLIs find this stack; a test of the launcher points it elsewhere (HIRELOOP_RUNTIME_FILE).
const runtimeFile = runtimeFilePath();
const quietPostgres = (line: string) => (/ready to accept|error|fatal/i.test(line) ? line : null);

let stack: Stack | null = null;
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  step('Stopping every process…');
  await stack?.stop();
  rmSync(runtimeFile, { force: true });
  step('Stopped.');
  process.exit(code);
}
onStopSignal(() => void shutdown(0));

try {
  await ensureConsoleBuilt();
  stack = await startStack({
    mode: 'start',
    dataDir: DATA_DIR,
    env: process.env,
    log: (name, index) => {
      const prefix = prefixer(name, index);
      return (line) => {
        const shown = name === 'postgres' ? quietPostgres(line) : line;
        if (shown) process.stdout.write(`${prefix(shown)}\n`);
      };
    },
  });
  writeRuntimeInfo({ identityUrl: stack.env['IDENTITY_URL']!, internalTokenKeys: stack.env['INTERNAL_TOKEN_KEYS']!, gatewayUrl: stack.urls.gateway, pid: process.pid }, runtimeFile);
  const demo = await bootstrapDemo(stack.env, localSecrets(DATA_DIR).demoAdminPassword);
  for (const child of stack.children) {
    void child.exited.then((code) => {
      if (stopping) return;
      warn(`${child.name} exited unexpectedly (${code}); stopping the platform.`);
      void shutdown(1);
    });
  }
  const lines = [
    '',
    'Hireloop is running.',
    `  API base URL     ${stack.urls.api}`,
    `  API reference    ${stack.urls.reference}`,
    `  Console          ${stack.urls.console}   (log in as ${demo.admin.email} / ${demo.admin.password})`,
    `  Temporal UI      ${stack.urls.temporalUi}`,
    `  Organization     ${demo.organization.name} (${demo.organization.id})${demo.created ? ', created now' : ''}`,
    `  API key          ${demo.apiKey}`,
    '                   (read, write, admin; shown only now; a new one on every start)',
    '',
    `  Try it:  curl -H "Authorization: Bearer ${demo.apiKey}" ${stack.urls.api}/me`,
    '  Ctrl-C stops everything; the data stays in .data/ for the next start.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (err) {
  warn((err as Error).message);
  await shutdown(1);
}
