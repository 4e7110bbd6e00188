import type { Scope } from '@hireloop/contracts';

/**
 * What each scope lets a key do on /api/v1 (the route table's `scope` of each route; PRODUCT.md §2).
 * Scopes are independent: admin does not include read or write.
 */
export const SCOPE_HELP: Record<Scope, string> = {
  read: 'Read candidates, positions, interviews and evaluations, hiring flows and their candidates, events, tasks, and webhooks with their deliveries (every GET).',
  write: 'Create and change candidates, positions, interviews, evaluation reviews and flow enrollments; send ATS events; request AI job descriptions.',
  admin: 'Register, change, test, replay and delete webhooks and rotate their secrets; erase a candidate. Not reading: add read for that.',
};
