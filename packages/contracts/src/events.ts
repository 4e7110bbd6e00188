import { z } from 'zod';

/** Outbound event types (PRODUCT.md §8). */
export const EventType = z.enum([
  'webhook.ping',
  'candidate.created',
  'position.created',
  'interview.scheduled',
  'interview.started',
  'interview.completed',
  'interview.cancelled',
  'interview.expired',
  'evaluation.completed',
  'evaluation.failed',
  'hiring_flow.candidate_enrolled',
  'task.succeeded',
  'task.failed',
  'ats_event.processed',
]);
export type EventType = z.infer<typeof EventType>;
