import { createIdentityClient } from '@hireloop/identity/client';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { rethrowServiceError } from '@hireloop/platform';

export const DEMO_ADMIN_EMAIL = 'admin@demo.hireloop.dev';

/**
 * First start: the demo organization, its admin and two hiring flows. Every start: a fresh API
 * key with every scope, printed once (the stack never stores it).
 */
export async function bootstrapDemo(env: Record<string, string>, adminPassword: string) {
  const internalTokenKeys = env['INTERNAL_TOKEN_KEYS']!;
  const identityUrl = env['IDENTITY_URL']!;
  const identity = createIdentityClient(identityUrl, internalTokenKeys);
  const { organization, created } = await identity.system.organizations.ensureDemo
    .mutate({ email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', password: adminPassword })
    .catch(rethrowServiceError);
  const key = await identity
    .forOrganization(organization.id)
    .apiKeys.create.mutate({ name: `npm start ${new Date().toISOString()}`, scopes: ['read', 'write', 'admin'] })
    .catch(rethrowServiceError);
  await createRecruitingClient(env['RECRUITING_URL']!, internalTokenKeys).system.flows.seedDemo.mutate({ organizationId: organization.id }).catch(rethrowServiceError);
  return { organization, created, apiKey: key.key, admin: { email: DEMO_ADMIN_EMAIL, password: adminPassword } };
}
