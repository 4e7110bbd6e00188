import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Position } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { formatTime } from '../../components/format.js';
import { EMPLOYMENT_TYPE_LABEL, PositionStatusBadge } from './labels.js';
import { Markdown } from './Markdown.js';
import { JobDescription } from './JobDescription.js';

/** `positions/:id`: the position, close or reopen it, its questions, and an AI job description. */
export default function PositionView() {
  const { id = '' } = useParams();
  const position = useQuery(recruiting.positions.get.queryOptions({ id }));
  return (
    <section aria-labelledby="position-title">
      <p><Link to="/positions">← Positions</Link></p>
      <QueryView query={position} loading="Loading the position…" notFound={<NoSuchResource what="position" list="/positions" listLabel="Back to the positions" />}>
        {(p) => (
          <>
            <div className="card-head">
              <h1 id="position-title">{p.title} <PositionStatusBadge status={p.status} /></h1>
              <div className="actions">
                <Link className="button" to={`/positions/${p.id}/edit`}>Edit</Link>
                <Link className="button secondary" to={`/positions/${p.id}/try`}>Try the interview</Link>
                <OpenOrClose position={p} />
              </div>
            </div>
            <Details position={p} />
            <section className="card" aria-labelledby="position-description-title">
              <h2 id="position-description-title">Description</h2>
              {p.description ? <Markdown text={p.description} /> : <p className="muted">No description yet. Write one in Edit, or generate one below.</p>}
            </section>
            <section className="card" aria-labelledby="position-rubric-title">
              <h2 id="position-rubric-title">Rubric <span className="hint">version {p.rubric.version}</span></h2>
              <ul className="competencies">
                {p.rubric.competencies.map((c) => (
                  <li key={c.key}>
                    <strong>{c.name}</strong> <span className="hint">{c.key} · weight {c.weight}</span>
                    {c.description && <p>{c.description}</p>}
                    <details>
                      <summary>Anchors</summary>
                      <ol>{c.levels.map((l, i) => <li key={i}>{l}</li>)}</ol>
                    </details>
                  </li>
                ))}
              </ul>
            </section>
            <section className="card" aria-labelledby="position-questions-title">
              <h2 id="position-questions-title">Interview questions</h2>
              {p.questions.length ? (
                <ol className="question-list">
                  {p.questions.map((q) => (
                    <li key={q.id} className="wrap">
                      {q.text}{' '}
                      <span className="hint">
                        {q.competencies.length ? `about ${q.competencies.map((k) => p.rubric.competencies.find((c) => c.key === k)?.name ?? k).join(', ')}` : 'about any competency'} · up to {q.maxFollowUps} follow-up{q.maxFollowUps === 1 ? '' : 's'}
                      </span>
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="muted">None of its own: the AI interview asks the default set of four general questions.</p>
              )}
            </section>
            <JobDescription position={p} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function Details({ position: p }: { position: Position }) {
  return (
    <section className="card" aria-labelledby="position-details-title">
      <h2 id="position-details-title">Details</h2>
      <dl className="details">
        <dt>Department</dt>
        <dd>{p.department ?? '—'}</dd>
        <dt>Location</dt>
        <dd>{p.location ?? '—'}</dd>
        <dt>Employment type</dt>
        <dd>{EMPLOYMENT_TYPE_LABEL[p.employmentType]}</dd>
        <dt>External id</dt>
        <dd>{p.externalId ? <code>{p.externalId}</code> : '—'}</dd>
        <dt>Id</dt>
        <dd><code>{p.id}</code></dd>
        <dt>Created</dt>
        <dd>{formatTime(p.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(p.updatedAt)}</dd>
      </dl>
    </section>
  );
}

/** Close (no new interviews; open ones go on) or reopen, each after a confirmation. */
function OpenOrClose({ position }: { position: Position }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const closing = position.status === 'open';
  const update = useMutation(recruiting.positions.update.mutationOptions({
    onSuccess: (updated) => {
      setConfirming(false);
      queryClient.setQueryData(recruiting.positions.get.queryKey({ id: updated.id }), updated);
      void queryClient.invalidateQueries({ queryKey: recruiting.positions.list.pathKey() });
    },
  }));
  return (
    <>
      <button type="button" className={closing ? 'danger' : 'secondary'} onClick={() => { update.reset(); setConfirming(true); }}>
        {closing ? 'Close position' : 'Reopen position'}
      </button>
      <ConfirmDialog
        open={confirming}
        title={closing ? `Close “${position.title}”?` : `Reopen “${position.title}”?`}
        confirmLabel={closing ? 'Close position' : 'Reopen position'}
        danger={closing}
        busy={update.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => update.mutate({ id: position.id, change: { status: closing ? 'closed' : 'open' } })}
      >
        <p>
          {closing
            ? 'No new interviews can be scheduled for it (the API answers 409 position_closed). Interviews already scheduled go on.'
            : 'Interviews can be scheduled for it again.'}
        </p>
        {update.isError && <p className="error" role="alert">{errorMessage(update.error)}</p>}
      </ConfirmDialog>
    </>
  );
}
