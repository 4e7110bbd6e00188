import type { AuditEvent } from '@hireloop/contracts';
import type { Column } from '../../components/DataTable.js';
import { formatTime } from '../../components/format.js';

const ACTOR_KIND: Record<AuditEvent['actor']['type'], string> = { api_key: 'API key', user: 'User', system: 'Platform' };

/** The columns of an audit list: when, who, what (with its details, a review's decision), on which resource, from where. */
export function auditColumns({ withResource }: { withResource: boolean }): Array<Column<AuditEvent>> {
  return [
    { header: 'When', cell: (e) => <time dateTime={e.createdAt}>{formatTime(e.createdAt)}</time> },
    { header: 'Actor', cell: (e) => <span title={e.actor.id}>{e.actor.name} <span className="hint">({ACTOR_KIND[e.actor.type]})</span></span> },
    {
      header: 'Action',
      cell: (e) => (
        <>
          <code>{e.action}</code>
          {e.details && <span className="hint"> {Object.entries(e.details).map(([k, v]) => `${k}: ${v}`).join(', ')}</span>}
        </>
      ),
    },
    ...(withResource ? [{ header: 'Resource', cell: (e: AuditEvent) => <code title={e.resource.type}>{e.resource.id}</code> }] : []),
    { header: 'Client', cell: (e) => e.ip ?? '—' },
    { header: 'Request', cell: (e) => (e.requestId ? <code>{e.requestId}</code> : '—') },
  ];
}
