import type { Scope } from '@hireloop/contracts';

/** What each scope lets a key do (PRODUCT.md §2); scopes are independent of each other. */
export const SCOPE_HELP: Record<Scope, string> = {
  read: 'Read candidates, positions, interviews, evaluations, hiring flows and webhooks.',
  write: 'Create and change candidates, positions, interviews and enrollments; send ATS events.',
  admin: 'Manage webhooks and organization settings such as ATS stage mappings.',
};
