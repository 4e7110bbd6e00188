import { readRuntimeInfo, rethrowServiceError } from '@hireloop/platform';
import { createIdentityClient } from '../client.js';
import { parseArgs, runCli, UsageError } from './args.js';

/** The actor of this tool's writes in the audit trail. */
const CLI_ACTOR = 'cli:users';

const USAGE = `usage:
  npm run users -- create --email EMAIL --password PASSWORD [--name NAME] [--org ORG_ID]
Creates a console user; prints its id. The organization defaults to the demo organization,
the name to the part of the e-mail before the @.`;

runCli(USAGE, async () => {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'create') throw new UsageError(command ? `unknown command ${command}` : 'missing command');
  const { flags } = parseArgs(rest, ['email', 'password', 'name', 'org']);
  const email = flags['email'];
  const password = flags['password'];
  if (!email) throw new UsageError('--email is required');
  if (!password) throw new UsageError('--password is required');
  const runtime = readRuntimeInfo();
  const identity = createIdentityClient(runtime.identityUrl, runtime.internalTokenKeys, CLI_ACTOR);
  const organizationId = flags['org'] ?? (await identity.system.organizations.demo.query().catch(rethrowServiceError)).id;
  const name = flags['name'] ?? email.split('@')[0]!;
  const user = await identity.system.users.create.mutate({ organizationId, email, name, password }).catch(rethrowServiceError);
  process.stdout.write(`${user.id}\n`);
  process.stderr.write(`created ${user.email} in ${user.organizationId}\n`);
});
