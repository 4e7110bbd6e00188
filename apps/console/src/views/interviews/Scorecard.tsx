// The evaluation as a scorecard (PRODUCT.md §10, §12): the overall score and recommendation from
// the published formula, each rubric competency with its score or "insufficient evidence", its
// rationale and its verified quotes (a click scrolls the transcript to the turn and highlights
// the words), the rubric version and provenance, the version history with re-runs, and a
// person's decision on the version shown (the AI recommends, a person decides).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_EVALUATION_VERSIONS, ReviewBody, ReviewDecision, type Evaluation, type Evidence } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { useSessionUser } from '../../session.js';
import { QueryView } from '../../components/PageState.js';
import { Field, useZodForm } from '../../components/Field.js';
import { formatTime } from '../../components/format.js';
import { DECISION_LABEL, RECOMMENDATION_LABEL } from './status.js';
import { Transcript, type Highlight } from './Transcript.js';

const WAITING: Record<string, string> = {
  pending: 'The evaluation starts when the candidate submits the interview.',
  processing: 'The AI is evaluating the answers; this page updates when it is done.',
};

const busy = (e: Evaluation) => e.status === 'processing' || e.status === 'pending';

export function Scorecard({ interviewId }: { interviewId: string }) {
  const evaluation = useQuery({
    ...recruiting.evaluations.get.queryOptions({ interviewId }),
    // Poll until the AI is done, so the scorecard appears without a reload.
    refetchInterval: (q) => (q.state.data && busy(q.state.data) ? 2000 : false),
  });
  const versions = useQuery({
    // Every version on one page: an interview has at most MAX_EVALUATION_VERSIONS.
    ...recruiting.evaluations.versions.queryOptions({ interviewId, limit: MAX_EVALUATION_VERSIONS }),
    select: (page) => page.items,
    refetchInterval: (q) => (q.state.data?.items.some(busy) ? 2000 : false),
  });
  const [selected, setSelected] = useState<number | null>(null);
  const [highlight, setHighlight] = useState<Highlight | null>(null);
  return (
    <>
      <section className="card" aria-labelledby="scorecard-title">
        <h2 id="scorecard-title">Scorecard</h2>
        <QueryView query={evaluation} loading="Loading the evaluation…">
          {(shown) => {
            const e = (selected !== null && versions.data?.find((v) => v.version === selected)) || shown;
            return (
              <>
                {versions.data && versions.data.length > 0 && <Versions versions={versions.data} current={e.version} onSelect={setSelected} interviewId={interviewId} />}
                {e.status === 'failed' && <p className="error-state" role="alert">The AI evaluation failed{e.error ? `: ${e.error.message}` : '.'}</p>}
                {busy(e) && <p className="muted">{WAITING[e.status]}</p>}
                {e.status === 'completed' && <Card evaluation={e} onQuote={setHighlight} />}
              </>
            );
          }}
        </QueryView>
      </section>
      <Transcript interviewId={interviewId} highlight={highlight} status={evaluation.data?.status} />
    </>
  );
}

/** The version history, newest first, and the re-run action (against the pinned or the current rubric). */
function Versions({ versions, current, onSelect, interviewId }: { versions: Evaluation[]; current: number | null; onSelect: (v: number) => void; interviewId: string }) {
  const queryClient = useQueryClient();
  const rerun = useMutation(recruiting.evaluations.rerun.mutationOptions({
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: recruiting.evaluations.versions.queryKey({ interviewId }) });
      void queryClient.invalidateQueries({ queryKey: recruiting.evaluations.get.queryKey({ interviewId }) });
      if (created.version) onSelect(created.version);
    },
  }));
  const full = versions.length >= MAX_EVALUATION_VERSIONS;
  return (
    <div className="versions">
      <h3>Versions</h3>
      <ol className="version-list" aria-label="Evaluation versions, newest first">
        {versions.map((v) => (
          <li key={v.version}>
            <button type="button" className={v.version === current ? 'small' : 'secondary small'} aria-pressed={v.version === current} onClick={() => v.version && onSelect(v.version)}>
              Version {v.version}
            </button>{' '}
            <span className="hint">
              {v.status}{v.overallScore !== null ? ` · ${v.overallScore}/100` : ''} · {v.rubricVersion ? `rubric v${v.rubricVersion}` : 'before rubrics'}{v.review ? ` · ${DECISION_LABEL[v.review.decision]}` : ''}
            </span>
          </li>
        ))}
      </ol>
      <div className="actions">
        {/* aria-disabled while pending, not disabled: a focused button that becomes disabled drops keyboard focus to the page. */}
        <button type="button" className="secondary small" disabled={full} aria-disabled={rerun.isPending} onClick={() => !rerun.isPending && rerun.mutate({ interviewId, body: { rubric: 'pinned' } })}>Re-run with the pinned rubric</button>
        <button type="button" className="secondary small" disabled={full} aria-disabled={rerun.isPending} onClick={() => !rerun.isPending && rerun.mutate({ interviewId, body: { rubric: 'current' } })}>Re-run with the current rubric</button>
      </div>
      {full && <p className="hint">This interview has {MAX_EVALUATION_VERSIONS} versions, the most there can be.</p>}
      {rerun.isError && <p className="error" role="alert">{errorMessage(rerun.error)}</p>}
    </div>
  );
}

function Card({ evaluation: e, onQuote }: { evaluation: Evaluation; onQuote: (h: Highlight) => void }) {
  return (
    <>
      <div className="score-head">
        <p className="score" aria-label={`Overall score ${e.overallScore ?? '—'} of 100`}><strong>{e.overallScore ?? '—'}</strong><span className="hint">/100</span></p>
        <p>AI recommendation: <strong>{e.recommendation ? RECOMMENDATION_LABEL[e.recommendation] : '—'}</strong></p>
      </div>
      {e.overallScoreReason && <p className="notice">{e.overallScoreReason}</p>}
      <p className="hint" id="provenance">
        Version {e.version} · {e.rubricVersion ? `rubric version ${e.rubricVersion}` : 'scored before rubrics existed (no rubric version)'} · {e.model ?? 'unknown model'}
        {e.promptVersion ? ` · prompt ${e.promptVersion}` : ''}{e.completedAt ? ` · ${formatTime(e.completedAt)}` : ''}
        {e.droppedQuotes > 0 ? ` · ${e.droppedQuotes} quote${e.droppedQuotes === 1 ? '' : 's'} refused (not in the transcript)` : ''}
      </p>
      {e.summary && <p>{e.summary}</p>}
      {e.competencyScores ? (
        <>
          <h3>Competencies</h3>
          <ul className="competencies">
            {e.competencyScores.map((c) => (
              <li key={c.key} data-competency={c.key}>
                <strong>{c.name}</strong> <span className="hint">weight {c.weight}</span>{' '}
                {c.score === null
                  ? <span className="badge muted-badge">Insufficient evidence</span>
                  : <span className="badge" aria-label={`${c.score} of 5`}>{c.score}/5</span>}
                <p>{c.rationale}</p>
                {c.evidence.length > 0 && (
                  <ul className="quotes">
                    {c.evidence.map((q, n) => (
                      <li key={n}>
                        <button type="button" className="quote" onClick={() => onQuote(highlightOf(q))} title="Show in the transcript">“{q.quote}”</button>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </>
      ) : (
        e.competencies.length > 0 && (
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
        )
      )}
      <div className="grid">
        <Points title="Strengths" points={e.strengths} />
        <Points title="Concerns" points={e.concerns} />
      </div>
      {/* Keyed by the version: another version's form starts afresh, without this one's errors or draft. */}
      <Review key={e.version ?? 'none'} evaluation={e} />
    </>
  );
}

const highlightOf = (q: Evidence): Highlight => ({ turnId: q.turnId, start: q.start, end: q.end, at: Date.now() });

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
      void queryClient.invalidateQueries({ queryKey: recruiting.evaluations.get.queryKey({ interviewId: updated.interviewId }) });
      void queryClient.invalidateQueries({ queryKey: recruiting.evaluations.versions.queryKey({ interviewId: updated.interviewId }) });
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (review.isPending) return;
    const input = form.validate({ decision, ...(note.trim() ? { note } : {}), ...(e.version ? { version: e.version } : {}) });
    if (input) review.mutate({ interviewId: e.interviewId, review: input, reviewer: { type: 'user', id: user.id, name: user.name } });
  };
  return (
    <section aria-labelledby="review-title" className="review">
      <h3 id="review-title">Your decision on version {e.version}</h3>
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
        {/* aria-disabled while pending (not disabled): keyboard focus stays on the button. */}
        <button type="submit" aria-disabled={review.isPending}>Record decision</button>
      </form>
    </section>
  );
}
