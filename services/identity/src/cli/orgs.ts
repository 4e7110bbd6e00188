import { readRuntimeInfo, rethrowServiceError } from '@hireloop/platform';
import { createIdentityClient } from '../client.js';
import { parseArgs, runCli, UsageError } from './args.js';

/** The actor of this tool's writes in the audit trail. */
const CLI_ACTOR = 'cli:orgs';

const USAGE = `usage: npm run orgs -- create --name NAME     prints the new organization's id`;

runCli(USAGE, async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'create') throw new UsageError(command ? `unknown command ${command}` : 'missing command');
  const { flags } = parseArgs(rest, ['name']);
  if (!flags['name']) throw new UsageError('--name is required');
  const runtime = readRuntimeInfo();
  const identity = createIdentityClient(runtime.identityUrl, runtime.internalTokenKeys, CLI_ACTOR);
  const org = await identity.system.organizations.create.mutate({ name: flags['name'] }).catch(rethrowServiceError);
  process.stdout.write(`${org.id}\n`);
});
