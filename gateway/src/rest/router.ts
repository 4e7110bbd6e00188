import { router } from './trpc.js';
import { me } from './me.js';
import { createCandidate, getCandidate, listCandidates } from './candidates.js';
import { createPosition, getPosition, listPositions } from './positions.js';
import { cancelInterview, getEvaluation, getInterview, listInterviews, scheduleInterview } from './interviews.js';
import { enrollCandidate, getHiringFlow, listHiringFlows } from './hiring-flows.js';

/** Every public /api/v1 route: one procedure each, with its scope and REST mapping in meta. */
export const restRouter = router({
  me,
  createCandidate,
  listCandidates,
  getCandidate,
  createPosition,
  listPositions,
  getPosition,
  scheduleInterview,
  listInterviews,
  getInterview,
  cancelInterview,
  getEvaluation,
  listHiringFlows,
  getHiringFlow,
  enrollCandidate,
});
export type RestRouter = typeof restRouter;
