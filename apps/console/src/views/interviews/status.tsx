// How interview and evaluation states read in the console.
import type { InterviewStatus } from '@hireloop/contracts';

export const INTERVIEW_STATUSES: InterviewStatus[] = ['scheduled', 'in_progress', 'completed', 'cancelled', 'expired', 'declined'];

export const STATUS_LABEL: Record<InterviewStatus, string> = {
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  declined: 'Declined (asked for a person)',
};

const STATUS_BADGE: Record<InterviewStatus, string> = {
  scheduled: 'badge',
  in_progress: 'badge badge-warn',
  completed: 'badge badge-ok',
  cancelled: 'badge badge-muted',
  expired: 'badge badge-muted',
  declined: 'badge badge-danger',
};

export function StatusBadge({ status }: { status: InterviewStatus }) {
  return <span className={STATUS_BADGE[status]}>{STATUS_LABEL[status]}</span>;
}

/** Whether the interview can still be cancelled (PRODUCT.md §7: scheduled or in progress). */
export const isOpen = (status: InterviewStatus) => status === 'scheduled' || status === 'in_progress';

export const RECOMMENDATION_LABEL = { strong_no: 'Strong no', no: 'No', mixed: 'Mixed', yes: 'Yes', strong_yes: 'Strong yes' } as const;
export const DECISION_LABEL = { advance: 'Advance', hold: 'Hold', reject: 'Reject' } as const;
