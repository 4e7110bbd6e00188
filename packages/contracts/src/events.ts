import { z } from 'zod';

/** Outbound event types (PRODUCT.md §8). */
export const EventType = z.enum([
  'webhook.ping',
  'candidate.created',
  'candidate.updated',
  'candidate.erased',
  'position.created',
  'position.updated',
  'interview.scheduled',
  'interview.started',
  'interview.completed',
  'interview.cancelled',
  'interview.expired',
  'interview.declined',
  'evaluation.completed',
  'evaluation.failed',
  'evaluation.reviewed',
  'hiring_flow.candidate_enrolled',
  'hiring_flow.candidate_moved',
  'task.succeeded',
  'task.failed',
  'ats_event.processed',
]);
export type EventType = z.infer<typeof EventType>;
