// The console's route table: the one list of views. The header nav, the router and
// `npm run screenshots` all read it. Add one entry per view (keep the list in nav order).
// Views load lazily, so this module imports no view code (node can read it too).
import type { ComponentType } from 'react';

export interface ConsoleRoute {
  /** Under /console/, with react-router params (`webhooks/:id`). */
  path: string;
  /** The page title, and the nav label when `nav` is set. */
  title: string;
  /** Shown in the header nav. */
  nav?: boolean;
  /** Screenshots: a concrete URL for a route with params (or omit to skip it). */
  example?: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const routes: ConsoleRoute[] = [
  { path: 'candidates', title: 'Candidates', nav: true, load: () => import('./views/candidates/CandidatesView.js') },
  { path: 'candidates/new', title: 'New candidate', load: () => import('./views/candidates/CandidateFormView.js') },
  { path: 'candidates/:id', title: 'Candidate', example: 'candidates/{candidate}', load: () => import('./views/candidates/CandidateProfileView.js') },
  { path: 'candidates/:id/edit', title: 'Edit candidate', example: 'candidates/{candidate}/edit', load: () => import('./views/candidates/CandidateFormView.js') },
  { path: 'positions', title: 'Positions', nav: true, load: () => import('./views/positions/PositionsView.js') },
  { path: 'positions/new', title: 'New position', load: () => import('./views/positions/PositionFormView.js') },
  { path: 'positions/:id', title: 'Position', example: 'positions/{position}', load: () => import('./views/positions/PositionView.js') },
  { path: 'positions/:id/edit', title: 'Edit position', example: 'positions/{position}/edit', load: () => import('./views/positions/PositionFormView.js') },
  { path: 'positions/:id/try', title: 'Try the interview', example: 'positions/{position}/try', load: () => import('./views/positions/TryInterview.js') },
  { path: 'keys', title: 'API keys', nav: true, load: () => import('./views/keys/KeysView.js') },
  { path: 'interviews', title: 'Interviews', nav: true, load: () => import('./views/interviews/InterviewsView.js') },
  { path: 'interviews/new', title: 'Schedule an interview', load: () => import('./views/interviews/ScheduleInterview.js') },
  { path: 'interviews/:id', title: 'Interview', example: 'interviews/{interview}', load: () => import('./views/interviews/InterviewDetail.js') },
  { path: 'flows', title: 'Hiring flows', nav: true, load: () => import('./views/flows/FlowsView.js') },
  { path: 'flows/new', title: 'New hiring flow', load: () => import('./views/flows/FlowEditorView.js') },
  { path: 'flows/:id', title: 'Pipeline', example: 'flows/{flow}', load: () => import('./views/flows/FlowBoardView.js') },
  { path: 'flows/:id/edit', title: 'Edit hiring flow', example: 'flows/{flow}/edit', load: () => import('./views/flows/FlowEditorView.js') },
  { path: 'webhooks', title: 'Webhooks', nav: true, load: () => import('./views/webhooks/WebhooksView.js') },
  { path: 'webhooks/:id', title: 'Webhook', example: 'webhooks/{webhook}', load: () => import('./views/webhooks/WebhookDetail.js') },
  { path: 'ats', title: 'ATS mappings', nav: true, load: () => import('./views/ats/AtsView.js') },
  { path: 'audit', title: 'Audit log', nav: true, load: () => import('./views/audit/AuditView.js') },
];

/** Where /console/ lands after login: a recruiter's daily work, not the API keys (issue 18 item 11). */
export const HOME = 'candidates';
