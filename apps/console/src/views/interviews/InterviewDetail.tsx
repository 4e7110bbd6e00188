// One interview: what it is, its status timeline, the invite URL (with copy) and its expiry,
// cancelling with a reason, and the evaluation's scorecard with a person's decision on it.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CancellationReason, InterviewId, type Interview } from '@hireloop/contracts';
import { errorCode, recruiting } from '../../trpc.js';
import { ErrorState, QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { CopyButton } from '../../components/CopyButton.js';
import { Field } from '../../components/Field.js';
import { formatTime } from '../../components/format.js';
import { isOpen, StatusBadge } from './status.js';
import { Scorecard } from './Scorecard.js';
import './interviews.css';

export default function InterviewDetail() {
  const parsed = InterviewId.safeParse(useParams()['id']);
  if (!parsed.success) return <NoSuchResource what="interview" list="/interviews" listLabel="Back to the interviews" />;
  return <InterviewPage id={parsed.data} />;
}

function InterviewPage({ id }: { id: string }) {
  const interview = useQuery(recruiting.interviews.get.queryOptions({ id }));
  if (interview.isError && errorCode(interview.error) === 'not_found') return <NoSuchResource what="interview" list="/interviews" listLabel="Back to the interviews" />;
  return (
    <QueryView query={interview} loading="Loading the interview…">
      {(i) => (
        <section aria-labelledby="interview-title">
          <p><Link to="/interviews">All interviews</Link></p>
          <h1 id="interview-title">{i.title}</h1>
          <p className="lead"><StatusBadge status={i.status} /> {i.candidate.name} <span className="hint">{i.candidate.email}</span></p>
          <Summary interview={i} />
          <Timeline interview={i} />
          {i.status !== 'cancelled' && i.status !== 'expired' && i.status !== 'declined' && <Scorecard interviewId={i.id} />}
        </section>
      )}
    </QueryView>
  );
}

function Summary({ interview: i }: { interview: Interview }) {
  const position = useQuery(recruiting.positions.get.queryOptions({ id: i.positionId }));
  return (
    <section className="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite</h2>
      <dl className="facts">
        <dt>Position</dt>
        <dd>{position.data?.title ?? (position.isError ? i.positionId : '…')}</dd>
        <dt>Duration</dt>
        <dd>{i.duration} minutes{i.accommodations.extraTimePercent ? ` + ${i.accommodations.extraTimePercent} % extra time` : ''}</dd>
        <dt>Language</dt>
        <dd>{i.language === 'de' ? 'German' : 'English'}</dd>
        <dt>Expires</dt>
        <dd>{formatTime(i.expiresAt)}</dd>
      </dl>
      {isOpen(i.status) ? (
        <div className="secret-row">
          <label htmlFor="invite-url">Invite URL</label>
          <input id="invite-url" type="text" readOnly value={i.inviteUrl} onFocus={(e) => e.target.select()} />
          <CopyButton text={i.inviteUrl} label="Copy invite URL" />
        </div>
      ) : (
        <p className="hint" id="invite-closed" tabIndex={-1}>The invite link no longer starts an interview.</p>
      )}
      {isOpen(i.status) && <CancelInterview interview={i} />}
    </section>
  );
}

/** The status timeline from the interview's own timestamps, oldest first. */
function Timeline({ interview: i }: { interview: Interview }) {
  const steps: Array<[string, string | null | undefined, string?]> = [
    ['Scheduled', i.createdAt],
    ['Agreed to the AI notice', i.consent?.givenAt, i.consent ? `notice ${i.consent.noticeVersion}` : undefined],
    ['Started', i.startedAt],
    ['Submitted', i.completedAt],
    ['Declined, asked for a person', i.declinedAt],
    ['Cancelled', i.cancelledAt, i.cancellationReason ?? undefined],
    ['Expired', i.status === 'expired' ? i.expiresAt : null],
  ];
  const done = steps.filter((s): s is [string, string, string?] => Boolean(s[1])).sort((a, b) => a[1].localeCompare(b[1]));
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol className="timeline">
        {done.map(([what, when, note]) => (
          <li key={what}>
            <strong>{what}</strong> <time dateTime={when}>{formatTime(when)}</time>
            {note && <span className="hint"> — {note}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function CancelInterview({ interview }: { interview: Interview }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const cancel = useMutation(recruiting.interviews.cancel.mutationOptions({
    onSuccess: (updated) => {
      setOpen(false);
      queryClient.setQueryData(recruiting.interviews.get.queryKey({ id: updated.id }), updated);
      void queryClient.invalidateQueries({ queryKey: recruiting.interviews.list.pathKey() });
    },
  }));
  const confirm = () => {
    const parsed = CancellationReason.safeParse(reason);
    if (!parsed.success) return setError('Say why, in up to 1 000 characters.');
    setError(undefined);
    cancel.mutate({ id: interview.id, reason: parsed.data });
  };
  return (
    <>
      <p><button type="button" className="danger" onClick={() => { cancel.reset(); setOpen(true); }}>Cancel interview</button></p>
      <ConfirmDialog open={open} title="Cancel this interview?" confirmLabel="Cancel interview" busy={cancel.isPending} focusAfter="invite-closed" onCancel={() => setOpen(false)} onConfirm={confirm}>
        <p>{interview.candidate.name}'s invite link stops working. The record and the reason are kept.</p>
        <Field label="Reason" error={error}>
          {(p) => <textarea {...p} name="reason" maxLength={1000} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
        {cancel.isError && <ErrorState error={cancel.error} title="The interview was not cancelled." />}
      </ConfirmDialog>
    </>
  );
}
