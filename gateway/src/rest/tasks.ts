import { CreateJobDescriptionBody, envelope, Task, TaskId } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';

export const createJobDescription = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 202,
    location: '/tasks/{id}',
    openapi: {
      method: 'POST', path: '/ai/job-description', tags: ['AI'], summary: 'Generate a job description (asynchronous)', successDescription: 'The task; poll the URL in `Location`', errorResponses: [404],
      description: 'Starts an AI task and answers 202 with it at once. Poll `GET /api/v1/tasks/{id}`: `queued` → `running` → `succeeded` (with `result`) or `failed` (with `error`). With `positionId` the result can be applied to that position from the console.',
    },
  })
  .input(CreateJobDescriptionBody)
  .output(envelope(Task))
  .mutation(async ({ ctx, input }) => {
    const task = await ctx.integrations.tasks.createJobDescription.mutate(input);
    return { data: task };
  });

export const getTask = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/tasks/{id}', tags: ['AI'], summary: 'Poll an asynchronous task', errorResponses: [404],
      description: 'A `job_description` (POST /ai/job-description) or a `candidate_erasure` (DELETE /candidates/{id}): `queued` → `running` → `succeeded` (with `result`) or `failed` (with `error`).',
    },
  })
  .input(z.object({ id: TaskId }).strict())
  .output(envelope(Task))
  .query(async ({ ctx, input }) => ({ data: await ctx.integrations.tasks.get.query(input) }));
