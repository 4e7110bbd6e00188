import type { ExpressionBuilder } from 'kysely';
import type { InterviewStatus } from '@hireloop/contracts';
import type { InterviewsTable, RecruitingDB } from '../db.js';
import { finishBy, finishBySql, type BudgetFields } from './time-budget.js';

/** Statuses an interview can still leave on its own clock: past their end they read `expired`. */
const OPEN: InterviewStatus[] = ['scheduled', 'in_progress'];

type StatusFields = Pick<InterviewsTable, 'status' | 'expires_at'> & BudgetFields;

/**
 * When an open interview expires: a scheduled one at `expires_at`; one in progress (started
 * before then) at `expires_at` plus its time budget, so that a candidate who began in time can
 * finish (PRODUCT.md §12 "Time").
 */
export function openUntil(row: StatusFields): Date {
  return row.status === 'in_progress' ? finishBy(row) : row.expires_at;
}

/**
 * The status as of now: an open interview past its end is `expired` even before the sweep has
 * written it, so no transition ever acts on a stale status.
 */
export function effectiveStatus(row: StatusFields, now = new Date()): InterviewStatus {
  if (OPEN.includes(row.status) && openUntil(row) <= now) return 'expired';
  return row.status;
}

/** Whether the interview can still be taken: scheduled or in progress, and not past its end. */
export function isOpen(row: StatusFields, now = new Date()): boolean {
  return OPEN.includes(effectiveStatus(row, now));
}

/**
 * An open interview past its end, in SQL (the list filter and the expiry sweep). Written so that
 * the partial index on open interviews' `expires_at` serves it: every overdue interview is past
 * `expires_at` (its budget is never negative), and one in progress also past its budget.
 */
export function isOverdue(alias: 'i') {
  return (eb: ExpressionBuilder<RecruitingDB & { i: InterviewsTable }, 'i'>) =>
    eb.and([
      eb(`${alias}.status`, 'in', OPEN),
      eb(`${alias}.expires_at`, '<=', eb.fn<Date>('now')),
      eb.or([eb(`${alias}.status`, '=', 'scheduled'), eb(finishBySql(alias), '<=', eb.fn<Date>('now'))]),
    ]);
}

/**
 * The `status=` list filter in SQL, on the same rule (PRODUCT.md §7: the status the client sees):
 * an overdue open interview is `expired` at once, and no longer `scheduled`/`in_progress`.
 */
export function hasEffectiveStatus(status: InterviewStatus) {
  return (eb: ExpressionBuilder<RecruitingDB & { i: InterviewsTable }, 'i'>) => {
    if (status === 'expired') return eb.or([eb('i.status', '=', 'expired'), isOverdue('i')(eb)]);
    if (OPEN.includes(status)) return eb.and([eb('i.status', '=', status), eb.not(isOverdue('i')(eb))]);
    return eb('i.status', '=', status);
  };
}
