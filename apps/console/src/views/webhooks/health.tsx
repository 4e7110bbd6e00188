import type { Webhook } from '@hireloop/contracts';
import { formatTime } from '../../components/format.js';

/** Enabled / disabled (with the reason the platform disabled it). */
export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  if (webhook.status === 'enabled') return <span className="badge badge-ok">enabled</span>;
  return (
    <span>
      <span className="badge badge-muted">disabled</span>
      {webhook.disabledReason && <span className="sub">{webhook.disabledReason}</span>}
    </span>
  );
}

const percent = (rate: number | null) => (rate === null ? 'no attempts' : `${Math.round(rate * 1000) / 10} %`);

/** Backlog and success rate of an endpoint, as one short line (list) or a definition list (detail). */
export function WebhookHealth({ stats, long = false }: { stats: Webhook['stats']; long?: boolean }) {
  const rateClass = stats.successRate24h === null ? '' : stats.successRate24h >= 0.95 ? 'badge-ok' : stats.successRate24h >= 0.5 ? 'badge-warn' : 'badge-danger';
  if (!long) {
    return (
      <span>
        <span className={`badge ${rateClass}`} title="Attempts answered 2xx in the last 24 h">{percent(stats.successRate24h)}</span>
        <span className="sub">{stats.pending} pending, {stats.retrying} retrying{stats.oldestDueAt ? `, oldest due ${formatTime(stats.oldestDueAt)}` : ''}</span>
      </span>
    );
  }
  return (
    <dl className="stats">
      <div><dt>Success, last 24 h</dt><dd><span className={`badge ${rateClass}`}>{percent(stats.successRate24h)}</span></dd></div>
      <div><dt>Pending</dt><dd>{stats.pending}</dd></div>
      <div><dt>Retrying</dt><dd>{stats.retrying}</dd></div>
      <div><dt>Oldest due</dt><dd>{formatTime(stats.oldestDueAt)}</dd></div>
    </dl>
  );
}
