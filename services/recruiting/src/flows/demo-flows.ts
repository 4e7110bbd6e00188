import type { Kysely } from '@hireloop/platform';
import type { RecruitingDB } from '../db.js';
import { createPosition } from '../positions/positions.queries.js';
import { createFlow } from './flows.queries.js';

/**
 * Two realistic hiring flows (with their positions) for the demo organization, made once:
 * a later call finds flows and does nothing.
 */
export async function seedDemoFlows(db: Kysely<RecruitingDB>, organizationId: string): Promise<{ created: boolean }> {
  const existing = await db.selectFrom('recruiting.hiring_flows').select('id').where('organization_id', '=', organizationId).limit(1).executeTakeFirst();
  if (existing) return { created: false };
  const backend = await createPosition(db, organizationId, {
    title: 'Senior Backend Engineer',
    description: 'Design, build and run the services behind our recruiting API (TypeScript, Postgres, Temporal).',
    department: 'Engineering',
    location: 'Remote (EU)',
    employmentType: 'full_time',
    status: 'open',
    interviewQuestions: [
      'Walk us through a service you designed end to end. What trade-offs did you make?',
      'How would you make an HTTP API safe to retry for clients on flaky networks?',
      'Tell us about a production incident you handled. What did you change afterwards?',
      'How do you decide what to test, and at which level?',
    ],
  }, null);
  const success = await createPosition(db, organizationId, {
    title: 'Customer Success Manager',
    description: 'Own the relationship with our ATS partners and their recruiting teams.',
    department: 'Customer Success',
    location: 'Berlin',
    employmentType: 'full_time',
    status: 'open',
    interviewQuestions: [],
  }, null);
  await createFlow(db, organizationId, {
    name: 'Engineering hiring',
    description: 'Recruiter screen, AI technical interview, panel review, offer.',
    positionId: backend.id,
    stages: [
      { name: 'Recruiter screen', kind: 'screen' },
      { name: 'AI technical interview', kind: 'ai_interview' },
      { name: 'Panel review', kind: 'review' },
      { name: 'Offer', kind: 'offer' },
    ],
  });
  await createFlow(db, organizationId, {
    name: 'Customer success hiring',
    description: 'Straight to an AI interview, then a hiring-manager review and the offer.',
    positionId: success.id,
    stages: [
      { name: 'AI interview', kind: 'ai_interview' },
      { name: 'Hiring manager review', kind: 'review' },
      { name: 'Offer', kind: 'offer' },
    ],
  });
  return { created: true };
}
