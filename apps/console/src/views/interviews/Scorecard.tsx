// The evaluation as a scorecard — score, recommendation, summary, competencies with their
// rationale, strengths, concerns, the answers — and a person's decision on it (PRODUCT.md §10:
// the AI recommends, a person decides; the reviewer is the signed-in user).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ReviewBody, ReviewDecision, type Evaluation } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { useSessionUser } from '../../session.js';
import { QueryView } from '../../components/PageState.js';
import { Field, useZodForm } from '../../components/Field.js';
import { formatTime } from '../../components/format.js';
import { DECISION_LABEL, RECOMMENDATION_LABEL } from './status.js';

const WAITING: Record<string, string> = {
  pending: 'The evaluation starts when the candidate submits the interview.',
  processing: 'The AI is evaluating the answers; this page updates when it is done.',
};

export function Scorecard({ interviewId }: { interviewId: string }) {
  const evaluation = useQuery({
    ...recruiting.evaluations.get.queryOptions({ interviewId }),
    // Poll until the AI is done, so the scorecard appears without a reload.
    refetchInterval: (q) => (q.state.data?.status === 'processing' || q.state.data?.status === 'pending' ? 2000 : false),
  });
  return (
    <section className="card" aria-labelledby="scorecard-title">
      <h2 id="scorecard-title">Scorecard</h2>
      <QueryView query={evaluation} loading="Loading the evaluation…">
        {(e) => {
          if (e.status === 'failed') return <p className="error-state" role="alert">The AI evaluation failed{e.error ? `: ${e.error.message}` : '.'}</p>;
          if (e.status !== 'completed') return <p className="muted">{WAITING[e.status]}</p>;
          return <Card evaluation={e} />;
        }}
      </QueryView>
    </section>
  );
}

function Card({ evaluation: e }: { evaluation: Evaluation }) {
  return (
    <>
      <div className="score-head">
        <p className="score" aria-label={`Overall score ${e.overallScore ?? '—'} of 100`}><strong>{e.overallScore ?? '—'}</strong><span className="hint">/100</span></p>
        <p>AI recommendation: <strong>{e.recommendation ? RECOMMENDATION_LABEL[e.recommendation] : '—'}</strong></p>
      </div>
      {e.summary && <p>{e.summary}</p>}
      {e.competencies.length > 0 && (
        <>
          <h3>Competencies</h3>
          <ul className="competencies">
            {e.competencies.map((c) => (
              <li key={c.name}>
                <strong>{c.name}</strong> <span className="badge" aria-label={`${c.score} of 5`}>{c.score}/5</span>
                <p>{c.rationale}</p>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="grid">
        <Points title="Strengths" points={e.strengths} />
        <Points title="Concerns" points={e.concerns} />
      </div>
      <details>
        <summary>Answers ({e.answers.length})</summary>
        <ol className="answers">
          {e.answers.map((a, n) => (
            <li key={n}>
              <p><strong>{a.question}</strong></p>
              <p className="answer">{a.answer}</p>
            </li>
          ))}
        </ol>
      </details>
      {e.model && <p className="hint">Evaluated by {e.model}{e.completedAt ? ` on ${formatTime(e.completedAt)}` : ''}.</p>}
      <Review evaluation={e} />
    </>
  );
}

function Points({ title, points }: { title: string; points: string[] }) {
  return (
    <div>
      <h3>{title}</h3>
      {points.length ? <ul>{points.map((p, n) => <li key={n}>{p}</li>)}</ul> : <p className="muted">None noted.</p>}
    </div>
  );
}

function Review({ evaluation: e }: { evaluation: Evaluation }) {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const form = useZodForm(ReviewBody);
  const [decision, setDecision] = useState('');
  const [note, setNote] = useState('');
  const review = useMutation(recruiting.evaluations.review.mutationOptions({
    onSuccess: (updated) => {
      setNote('');
      queryClient.setQueryData(recruiting.evaluations.get.queryKey({ interviewId: updated.interviewId }), updated);
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = form.validate({ decision, ...(note.trim() ? { note } : {}) });
    if (input) review.mutate({ interviewId: e.interviewId, review: input, reviewer: { type: 'user', id: user.id, name: user.name } });
  };
  return (
    <section aria-labelledby="review-title" className="review">
      <h3 id="review-title">Your decision</h3>
      {e.review ? (
        <p className="notice" id="current-review">
          <strong>{DECISION_LABEL[e.review.decision]}</strong> by {e.review.reviewer.name} ({e.review.reviewer.type === 'user' ? 'console user' : 'API key'}), {formatTime(e.review.reviewedAt)}
          {e.review.note && <>: “{e.review.note}”</>}
        </p>
      ) : (
        <p className="muted">No one has decided yet. The AI only recommends; nothing happens to the candidate on its score.</p>
      )}
      <form onSubmit={submit} noValidate>
        <fieldset className="field" aria-describedby="decision-error">
          <legend>{e.review ? 'Change the decision' : 'Decision'}</legend>
          {ReviewDecision.options.map((d) => (
            <label className="check" key={d}>
              <input type="radio" name="decision" value={d} checked={decision === d} onChange={() => setDecision(d)} /> {DECISION_LABEL[d]}
            </label>
          ))}
          <p className="error" id="decision-error">{form.errors['decision'] ? 'Choose advance, hold or reject.' : ''}</p>
        </fieldset>
        <Field label="Note" optional error={form.errors['note']}>
          {(p) => <textarea {...p} name="note" maxLength={5000} rows={3} value={note} onChange={(ev) => setNote(ev.target.value)} />}
        </Field>
        <p className="error" role="alert">{review.isError && !Object.keys(form.errors).length ? errorMessage(review.error) : ''}</p>
        <button type="submit" disabled={review.isPending}>Record decision</button>
      </form>
    </section>
  );
}
