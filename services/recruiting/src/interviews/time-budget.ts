import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { InterviewsTable } from '../db.js';

// An interview's time budget (PRODUCT.md §12 "Time"): `duration` minutes plus the accommodation's
// extra percent. It is shown to the candidate as time remaining; past it no follow-ups are asked,
// and nothing is cut off: an interview started before its expiry can be finished until
// `expiresAt` plus its budget (then it is `expired`, its transcript kept).

export type BudgetFields = Pick<Selectable<InterviewsTable>, 'duration_minutes' | 'extra_time_percent'>;

export function budgetMs(row: BudgetFields): number {
  return Math.round((row.duration_minutes * 60_000 * (100 + row.extra_time_percent)) / 100);
}

/** Seconds of the budget left (0 once spent), counted from the start of the interview. */
export function remainingSeconds(row: BudgetFields & Pick<InterviewsTable, 'started_at'>, now = new Date()): number {
  if (!row.started_at) return Math.round(budgetMs(row) / 1000);
  return Math.max(0, Math.round((row.started_at.getTime() + budgetMs(row) - now.getTime()) / 1000));
}

/** Past the budget no follow-ups are asked. */
export function budgetSpent(row: BudgetFields & Pick<InterviewsTable, 'started_at'>, now = new Date()): boolean {
  return row.started_at !== null && now.getTime() >= row.started_at.getTime() + budgetMs(row);
}

/** The end of an interview in progress: its expiry plus its budget. */
export function finishBy(row: BudgetFields & Pick<InterviewsTable, 'expires_at'>): Date {
  return new Date(row.expires_at.getTime() + budgetMs(row));
}

/** `finishBy` in SQL, for the list filter and the expiry sweep (the same rule as above). */
export function finishBySql(alias: string): RawBuilder<Date> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<Date>`(${col('expires_at')} + make_interval(secs => ${col('duration_minutes')} * 60 * (100 + ${col('extra_time_percent')}) / 100.0))`;
}
