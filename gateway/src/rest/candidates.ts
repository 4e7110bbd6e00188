import { Candidate, CandidateId, CreateCandidateBody, envelope, listEnvelope, ListCandidatesQuery, Task, UpdateCandidateBody } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Candidates'];

export const createCandidate = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 201,
    location: '/candidates/{id}',
    openapi: {
      method: 'POST', path: '/candidates', tags, summary: 'Create a candidate', successDescription: 'The candidate was created', errorResponses: [404],
      description: 'E-mail and name are required. An e-mail already in the organization (case-insensitive) is 409 `candidate_exists`, with the existing `candidateId` in the error. A retry with the `Idempotency-Key` of a request whose candidate has been erased since is 404 `not_found`, never a replay of the person.',
    },
  })
  .input(CreateCandidateBody)
  .output(envelope(Candidate))
  .mutation(async ({ ctx, input }) => {
    const candidate = await ctx.recruiting.candidates.create.mutate(input);
    return { data: candidate };
  });

export const listCandidates = apiProcedure
  .meta({
    scope: 'read',
    openapi: { method: 'GET', path: '/candidates', tags, summary: 'List candidates', description: 'Newest first. Filters: `email`, `externalId`, `createdAfter`, `createdBefore`. The next page is in `Link: rel="next"`. With `updatedAfter` (incremental sync): every change after that instant, oldest first by `(updatedAt, id)`; see docs/api.md.' },
  })
  .input(ListCandidatesQuery)
  .output(listEnvelope(Candidate))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.recruiting.candidates.list.query(input)));

export const getCandidate = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/candidates/{id}', tags, summary: 'Get a candidate', errorResponses: [404] } })
  .input(z.object({ id: CandidateId }).strict())
  .output(envelope(Candidate))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.candidates.get.query(input) }));

export const updateCandidate = apiProcedure
  .meta({
    scope: 'write',
    openapi: {
      method: 'PATCH', path: '/candidates/{id}', tags, summary: 'Update a candidate', errorResponses: [404, 409],
      description: 'Any of `name`, `email`, `phone`, `externalId`, `metadata`. `metadata` merges into the stored map; a key set to `null` is removed. An e-mail another candidate has is 409 `candidate_exists` with its `candidateId`. Emits `candidate.updated` when something changed.',
    },
  })
  .input(UpdateCandidateBody.extend({ id: CandidateId }).strict())
  .output(envelope(Candidate))
  .mutation(async ({ ctx, input }) => {
    const { id, ...change } = input;
    return { data: await ctx.recruiting.candidates.update.mutate({ id, change }) };
  });

export const eraseCandidate = apiProcedure
  .meta({
    scope: 'admin',
    successStatus: 202,
    location: '/tasks/{id}',
    openapi: {
      method: 'DELETE', path: '/candidates/{id}', tags, summary: 'Erase a candidate (GDPR art. 17)', successDescription: 'The `candidate_erasure` task; poll the URL in `Location`', errorResponses: [404],
      description:
        'From this response on the candidate is 404 everywhere: the candidate, its interviews, their evaluations and invite pages; it is in no list. The task scrubs every copy of the person in every service (answers, evaluation text, enrollments, stored event payloads, outbox payloads, delivery-log excerpts, stored idempotent responses) and ends `succeeded`; then the event `candidate.erased` (the id only) is sent. Interviews stay as anonymous rows (status, times, scores) for aggregate counts only. Erasing an erased candidate answers 202 with its task and changes nothing while that task is `queued`, `running` or `succeeded`; after a `failed` task it starts a new attempt, a new task (the failed one stays `failed`).',
    },
  })
  .input(z.object({ id: CandidateId }).strict())
  .output(envelope(Task))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.erasure.start.mutate({ candidateId: input.id }) }));
