import { readRuntimeInfo, rethrowServiceError } from '@hireloop/platform';
import { Scope } from '@hireloop/contracts';
import { createIdentityClient } from '../client.js';
import { parseArgs, runCli, UsageError } from './args.js';

/** The actor of this tool's writes in the audit trail. */
const CLI_ACTOR = 'cli:keys';

const USAGE = `usage:
  npm run keys -- create --name NAME --scopes read,write[,admin] [--org ORG_ID] [--rate-limit PER_MINUTE]
  npm run keys -- list [--org ORG_ID]
  npm run keys -- revoke KEY_ID
The organization defaults to the demo organization.`;

runCli(USAGE, async () => {
  const [command, ...rest] = process.argv.slice(2);
  const runtime = readRuntimeInfo();
  const identity = createIdentityClient(runtime.identityUrl, runtime.internalTokenKeys, CLI_ACTOR);
  // A given organization must exist: an unknown id would list an empty table (or make a key for nobody) without a word.
  const orgOf = async (flag: string | undefined) =>
    flag ? (await identity.system.organizations.get.query({ id: flag }).catch(rethrowServiceError)).id : (await identity.system.organizations.demo.query()).id;

  switch (command) {
    case 'create': {
      const { flags } = parseArgs(rest, ['name', 'scopes', 'org', 'rate-limit']);
      if (!flags['name']) throw new UsageError('--name is required');
      if (!flags['scopes']) throw new UsageError('--scopes is required (comma-separated: read, write, admin)');
      const scopes = flags['scopes'].split(',').map((s) => Scope.parse(s.trim()));
      const rateLimitPerMinute = flags['rate-limit'] ? Number(flags['rate-limit']) : undefined;
      const org = await orgOf(flags['org']);
      const key = await identity
        .forOrganization(org)
        .apiKeys.create.mutate({ name: flags['name'], scopes, rateLimitPerMinute })
        .catch(rethrowServiceError);
      process.stdout.write(`${key.key}\n`);
      process.stderr.write(`created ${key.id} (${key.scopes.join(',')}) in ${org}; the key is shown only this once\n`);
      return;
    }
    case 'list': {
      const { flags } = parseArgs(rest, ['org']);
      const org = await orgOf(flags['org']);
      let cursor: string | undefined;
      process.stdout.write(`${['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED'].join('\t')}\n`);
      do {
        const page = await identity.forOrganization(org).apiKeys.list.query({ limit: 100, cursor }).catch(rethrowServiceError);
        for (const k of page.items) {
          process.stdout.write(`${[k.id, k.name, k.prefix, k.scopes.join(','), k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-'].join('\t')}\n`);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return;
    }
    case 'revoke': {
      const { positional } = parseArgs(rest, []);
      const id = positional[0];
      if (!id) throw new UsageError('KEY_ID is required');
      const key = await identity.system.apiKeys.revokeAnywhere.mutate({ id }).catch(rethrowServiceError);
      process.stdout.write(`revoked ${key.id} at ${key.revokedAt}\n`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'missing command');
  }
});
