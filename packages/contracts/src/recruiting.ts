import { z } from 'zod';
import { Cursor, ID_PREFIXES, PageLimit, prefixedId, Timestamp } from './common.js';

// Resources of the recruiting service (PRODUCT.md §7). Limits from §4.
export const CandidateId = prefixedId(ID_PREFIXES.candidate);
export const PositionId = prefixedId(ID_PREFIXES.position);
export const InterviewId = prefixedId(ID_PREFIXES.interview);

const Name = z.string().trim().min(1).max(200);
const Email = z.email().max(254).describe('E-mail address; unique per organization, case-insensitive');
const ExternalId = z.string().trim().min(1).max(200).describe('Your system\'s id for this record');
const Metadata = z
  .record(z.string().max(100), z.string().max(1000))
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys')
  .describe('Your own string key/value pairs (≤ 50 keys)');

/** Query-string timestamp filter: an ISO 8601 instant, e.g. 2026-01-31T00:00:00Z. */
const InstantFilter = z.iso.datetime({ offset: true });

export const Candidate = z
  .object({
    id: CandidateId,
    email: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    externalId: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Candidate' });
export type Candidate = z.infer<typeof Candidate>;

export const CreateCandidateBody = z
  .object({
    email: Email,
    name: Name,
    phone: z.string().trim().min(3).max(40).optional(),
    externalId: ExternalId.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .meta({ id: 'CreateCandidateBody' });
export type CreateCandidateBody = z.infer<typeof CreateCandidateBody>;

export const ListQuery = z.object({ limit: PageLimit, cursor: Cursor.optional() });

export const ListCandidatesQuery = ListQuery.extend({
  email: z.string().max(254).optional().describe('Exact e-mail, case-insensitive'),
  externalId: ExternalId.optional(),
  createdAfter: InstantFilter.optional().describe('Only candidates created after this instant'),
  createdBefore: InstantFilter.optional().describe('Only candidates created before this instant'),
}).strict();
export type ListCandidatesQuery = z.infer<typeof ListCandidatesQuery>;

export const EmploymentType = z.enum(['full_time', 'part_time', 'contract', 'internship', 'temporary']);
export const PositionStatus = z.enum(['open', 'closed']);

export const Position = z
  .object({
    id: PositionId,
    title: z.string(),
    description: z.string().nullable(),
    department: z.string().nullable(),
    location: z.string().nullable(),
    employmentType: EmploymentType,
    status: PositionStatus,
    externalId: z.string().nullable(),
    interviewQuestions: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Position' });
export type Position = z.infer<typeof Position>;

export const CreatePositionBody = z
  .object({
    title: Name,
    description: z.string().max(20_000).optional(),
    department: Name.optional(),
    location: Name.optional(),
    employmentType: EmploymentType.default('full_time'),
    status: PositionStatus.default('open'),
    externalId: ExternalId.optional(),
    interviewQuestions: z.array(z.string().trim().min(1).max(1000)).max(20).default([]).describe('0–20 questions; a default set is used when empty'),
  })
  .strict()
  .meta({ id: 'CreatePositionBody' });
export type CreatePositionBody = z.infer<typeof CreatePositionBody>;

export const ListPositionsQuery = ListQuery.extend({ status: PositionStatus.optional() }).strict();
export type ListPositionsQuery = z.infer<typeof ListPositionsQuery>;

/** A page as a service returns it; the gateway turns nextCursor into `Link: rel="next"`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}
