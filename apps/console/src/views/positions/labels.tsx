import type { Position } from '@hireloop/contracts';

export const EMPLOYMENT_TYPE_LABEL: Record<Position['employmentType'], string> = {
  full_time: 'Full time', part_time: 'Part time', contract: 'Contract', internship: 'Internship', temporary: 'Temporary',
};

export function PositionStatusBadge({ status }: { status: Position['status'] }) {
  return <span className={status === 'open' ? 'badge badge-ok' : 'badge badge-muted'}>{status}</span>;
}
