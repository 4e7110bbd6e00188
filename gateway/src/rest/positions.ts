import { CreatePositionBody, envelope, listEnvelope, ListPositionsQuery, Position, PositionId, UpdatePositionBody } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Positions'];

export const createPosition = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 201,
    location: '/positions/{id}',
    atMostOneOf: { fields: ['questions', 'interviewQuestions'], unlessEmpty: ['interviewQuestions'] },
    openapi: { method: 'POST', path: '/positions', tags, summary: 'Create a position', successDescription: 'The position was created', description: 'Only `title` is required. `rubric` is what the AI scores against (1–8 competencies, each with a weight 1–10 and exactly five anchors); without it the position gets the default rubric (docs/api.md), version 1. `questions` (0–20, each naming the competencies it is about) are asked in AI interviews for this position; a default set is used when empty. `interviewQuestions` (strings) sets `questions` with defaults: give one of the two. Each rubric rule broken is 422 `validation_failed` with the field in `details`.' },
  })
  .input(CreatePositionBody)
  .output(envelope(Position))
  .mutation(async ({ ctx, input }) => {
    const position = await ctx.recruiting.positions.create.mutate(input);
    return { data: position };
  });

export const listPositions = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/positions', tags, summary: 'List positions', description: 'Newest first. Filter: `status`. The next page is in `Link: rel="next"`. With `updatedAfter` (incremental sync): every change after that instant, oldest first by `(updatedAt, id)`; see docs/api.md.' } })
  .input(ListPositionsQuery)
  .output(listEnvelope(Position))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.recruiting.positions.list.query(input)));

export const getPosition = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/positions/{id}', tags, summary: 'Get a position', errorResponses: [404] } })
  .input(z.object({ id: PositionId }).strict())
  .output(envelope(Position))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.positions.get.query(input) }));

export const updatePosition = apiProcedure
  .meta({
    scope: 'write',
    atMostOneOf: { fields: ['questions', 'interviewQuestions'], unlessEmpty: ['interviewQuestions'] },
    openapi: {
      method: 'PATCH', path: '/positions/{id}', tags, summary: 'Update a position', errorResponses: [404, 409],
      description: 'Any field, `status` included (`null` clears `description`, `department`, `location`, `externalId`). Closing a position makes new interviews for it 409 `position_closed`; interviews already scheduled go on. A change of `rubric`, `questions` or `interviewQuestions` makes a new `rubric.version`; interviews scheduled before keep the version they pinned. A question keeps its settings when its `id` is sent (or, through `interviewQuestions`, when its text is unchanged). Emits `position.updated` when something changed.',
    },
  })
  .input(UpdatePositionBody.extend({ id: PositionId }).strict())
  .output(envelope(Position))
  .mutation(async ({ ctx, input }) => {
    const { id, ...change } = input;
    return { data: await ctx.recruiting.positions.update.mutate({ id, change }) };
  });
