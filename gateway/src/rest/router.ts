import { router } from './trpc.js';
import { me } from './me.js';
import { createCandidate, eraseCandidate, getCandidate, listCandidates, updateCandidate } from './candidates.js';
import { createPosition, getPosition, listPositions, updatePosition } from './positions.js';
import { cancelInterview, getEvaluation, getInterview, getTranscript, listEvaluationVersions, listInterviews, rerunEvaluation, reviewEvaluation, scheduleInterview } from './interviews.js';
import { enrollCandidate, getHiringFlow, listFlowCandidates, listHiringFlows, moveFlowCandidate } from './hiring-flows.js';
import {
  createWebhook, deleteWebhook, getWebhook, listDeliveryAttempts, listWebhookDeliveries, listWebhooks, replayWebhook, retryWebhookDelivery, rotateWebhookSecret, testWebhook,
  updateWebhook,
} from './webhooks.js';
import { getEvent, listEvents } from './events.js';
import { createJobDescription, getTask } from './tasks.js';
import { pushAtsEvent } from './ats-events.js';
import { listAuditEvents } from './audit-events.js';

/** Every public /api/v1 route: one procedure each, with its scope and REST mapping in meta. */
export const restRouter = router({
  me,
  createCandidate,
  listCandidates,
  getCandidate,
  updateCandidate,
  eraseCandidate,
  createPosition,
  listPositions,
  getPosition,
  updatePosition,
  scheduleInterview,
  listInterviews,
  getInterview,
  cancelInterview,
  getEvaluation,
  reviewEvaluation,
  listEvaluationVersions,
  rerunEvaluation,
  getTranscript,
  listHiringFlows,
  getHiringFlow,
  enrollCandidate,
  listFlowCandidates,
  moveFlowCandidate,
  createWebhook,
  listWebhooks,
  getWebhook,
  deleteWebhook,
  updateWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  listDeliveryAttempts,
  retryWebhookDelivery,
  replayWebhook,
  listEvents,
  getEvent,
  createJobDescription,
  getTask,
  pushAtsEvent,
  listAuditEvents,
});
export type RestRouter = typeof restRouter;

