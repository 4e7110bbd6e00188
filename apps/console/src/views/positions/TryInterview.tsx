// "Try the interview" (PRODUCT.md §12): the position's AI interview as a candidate would take it,
// one turn at a time, with the follow-ups the interviewer would ask. A preview: nothing is stored
// (this page holds the turns), and starting one is recorded in the audit log as
// `interview.previewed` on the position.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { INTERVIEW_LANGUAGES, MAX_ANSWER_CHARS, type FollowUpSkipped, type InterviewLanguage } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { Field } from '../../components/Field.js';
import { QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { SkippedNote } from '../interviews/TurnNotes.js';
import '../interviews/interviews.css';

type PreviewTurn = { kind: 'question' | 'follow_up' | 'answer'; questionId: string; text: string; skipped?: FollowUpSkipped | null };
type Current = { kind: 'question' | 'follow_up'; questionId: string; text: string; questionNumber: number; questionCount: number };

const LANGUAGE_LABEL: Record<InterviewLanguage, string> = { en: 'English', de: 'German' };

export default function TryInterview() {
  const { id = '' } = useParams();
  const position = useQuery(recruiting.positions.get.queryOptions({ id }));
  const [language, setLanguage] = useState<InterviewLanguage>('en');
  const [turns, setTurns] = useState<PreviewTurn[]>([]);
  const [current, setCurrent] = useState<Current | null>(null);
  const [ended, setEnded] = useState(false);
  const [answer, setAnswer] = useState('');
  const [tooLong, setTooLong] = useState<string | undefined>(undefined);
  const [model, setModel] = useState('');
  const currentRef = useRef<HTMLHeadingElement>(null);
  const step = useMutation(recruiting.interviews.preview.mutationOptions());
  const started = turns.length > 0 || current !== null;

  useEffect(() => currentRef.current?.focus(), [current]);

  const advance = (sent: PreviewTurn[]) => {
    step.mutate(
      { positionId: id, language, turns: sent.map(({ kind, questionId, text }) => ({ kind, questionId, text })) },
      {
        onSuccess: (next) => {
          setModel(next.model);
          const withSkip = next.followUpSkipped && sent.length ? [...sent.slice(0, -1), { ...sent.at(-1)!, skipped: next.followUpSkipped }] : sent;
          setTurns(next.turn ? [...withSkip, { kind: next.turn.kind, questionId: next.turn.questionId, text: next.turn.text }] : withSkip);
          setCurrent(next.turn);
          setEnded(next.turn === null);
          setAnswer('');
        },
      },
    );
  };
  const start = () => {
    setTurns([]);
    setCurrent(null);
    setEnded(false);
    advance([]);
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    const text = answer.trim();
    // Characters as the API counts them: code points (the invite page's rule and message).
    const length = Array.from(text).length;
    if (length > MAX_ANSWER_CHARS) {
      setTooLong(`Your answer is ${length.toLocaleString('en-GB')} characters long; an answer can have at most ${MAX_ANSWER_CHARS.toLocaleString('en-GB')}. Please shorten it.`);
      return;
    }
    if (!current || length === 0) return;
    advance([...turns, { kind: 'answer', questionId: current.questionId, text }]);
  };
  const shown = current ? turns.slice(0, -1) : turns;

  return (
    <section aria-labelledby="try-title">
      <p><Link to={`/positions/${id}`}>← Position</Link></p>
      <QueryView query={position} loading="Loading the position…" notFound={<NoSuchResource what="position" list="/positions" listLabel="Back to the positions" />}>
        {(p) => (
          <>
            <h1 id="try-title">Try the interview: {p.title}</h1>
            <p className="lead">
              Answer as a candidate would, one question at a time, and see the follow-ups the interviewer asks. This is a preview: nothing is stored as a candidate's
              interview, and starting one is recorded in the audit log as <code>interview.previewed</code>.
            </p>
            {!started && (
              <section className="card" aria-labelledby="try-start-title">
                <h2 id="try-start-title">Start a preview</h2>
                <Field label="Language" hint="The language of the follow-up questions (the page texts of a real interview too).">
                  {(f) => (
                    <select {...f} name="language" value={language} onChange={(e) => setLanguage(e.target.value as InterviewLanguage)}>
                      {INTERVIEW_LANGUAGES.map((l) => <option key={l} value={l}>{LANGUAGE_LABEL[l]}</option>)}
                    </select>
                  )}
                </Field>
                <button type="button" onClick={start} disabled={step.isPending}>Start the preview</button>
              </section>
            )}
            {started && (
              <section className="card" aria-labelledby="try-conversation-title">
                <h2 id="try-conversation-title">Conversation {model && <span className="hint">follow-ups by {model}</span>}</h2>
                {shown.length > 0 && (
                  <ol className="transcript">
                    {shown.map((t, i) => (
                      <li key={i} className={`turn turn-${t.kind === 'answer' ? 'candidate' : 'interviewer'}`}>
                        <p className="hint">{t.kind === 'answer' ? 'Your answer' : t.kind === 'follow_up' ? 'Follow-up' : 'Question'}{t.skipped ? <> · <SkippedNote reason={t.skipped} /></> : null}</p>
                        <p className="answer" lang={t.kind === 'follow_up' ? language : undefined}>{t.text}</p>
                      </li>
                    ))}
                  </ol>
                )}
                {current && (
                  <form onSubmit={send} noValidate>
                    <p className="hint">Question {current.questionNumber} of {current.questionCount}{current.kind === 'follow_up' ? ' · follow-up' : ''}</p>
                    <h3 ref={currentRef} tabIndex={-1} id="try-current" lang={current.kind === 'follow_up' ? language : undefined}>{current.text}</h3>
                    <Field label="Your answer" hint={`Up to ${MAX_ANSWER_CHARS.toLocaleString('en-GB')} characters.`} error={tooLong}>
                      {(f) => <textarea {...f} name="answer" rows={5} value={answer} onChange={(e) => { setAnswer(e.target.value); setTooLong(undefined); }} />}
                    </Field>
                    <p className="hint" role="status">{step.isPending ? 'The interviewer is reading your answer…' : ''}</p>
                    <button type="submit" disabled={step.isPending || answer.trim().length === 0}>Send answer</button>
                  </form>
                )}
                {ended && <p role="status" id="try-ended">The interview would end here; a candidate's answers would now be evaluated.</p>}
                <p className="error" role="alert">{step.isError ? errorMessage(step.error) : ''}</p>
                <button type="button" className="secondary" onClick={start} disabled={step.isPending}>Start again</button>
              </section>
            )}
          </>
        )}
      </QueryView>
    </section>
  );
}
