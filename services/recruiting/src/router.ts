import { CursorCodec, type Kysely } from '@hireloop/platform';
import { Candidate, CandidateId, CreateCandidateBody, CreatePositionBody, ListCandidatesQuery, ListPositionsQuery, pageOf, Position, PositionId } from '@hireloop/contracts';
import { z } from 'zod';
import type { RecruitingDB } from './db.js';
import { orgProcedure, router } from './trpc.js';
import { createCandidate, getCandidate, listCandidates } from './candidates/candidates.queries.js';
import { createPosition, getPositionRow, listPositions, toPosition } from './positions/positions.queries.js';

export interface RecruitingDeps {
  db: Kysely<RecruitingDB>;
  cursors: CursorCodec;
}

export function createRecruitingRouter(deps: RecruitingDeps) {
  const { db, cursors } = deps;
  return router({
    candidates: router({
      create: orgProcedure.input(CreateCandidateBody).output(Candidate).mutation(({ ctx, input }) => createCandidate(db, ctx.org, input)),
      list: orgProcedure.input(ListCandidatesQuery).output(pageOf(Candidate)).query(({ ctx, input }) => listCandidates(db, cursors, ctx.org, input)),
      get: orgProcedure.input(z.object({ id: CandidateId })).output(Candidate).query(({ ctx, input }) => getCandidate(db, ctx.org, input.id)),
    }),
    positions: router({
      create: orgProcedure.input(CreatePositionBody).output(Position).mutation(({ ctx, input }) => createPosition(db, ctx.org, input)),
      list: orgProcedure.input(ListPositionsQuery).output(pageOf(Position)).query(({ ctx, input }) => listPositions(db, cursors, ctx.org, input)),
      get: orgProcedure
        .input(z.object({ id: PositionId }))
        .output(Position)
        .query(async ({ ctx, input }) => toPosition(await getPositionRow(db, ctx.org, input.id))),
    }),
  });
}

export type RecruitingRouter = ReturnType<typeof createRecruitingRouter>;
