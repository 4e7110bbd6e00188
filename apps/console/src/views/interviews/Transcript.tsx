// The interview's transcript (PRODUCT.md §12): every turn in order. A quote clicked on the
// scorecard scrolls its turn into view and marks the quoted words, by the code-point offsets
// the evaluation gives.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Turn } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { formatTime } from '../../components/format.js';
import { IntegritySignals, SkippedNote } from './TurnNotes.js';

/** Which words to mark; `at` makes a second click on the same quote scroll again. */
export interface Highlight {
  turnId: string;
  start: number;
  end: number;
  at: number;
}

const KIND_LABEL: Record<Turn['kind'], string> = { question: 'Question', follow_up: 'Follow-up', answer: 'Answer' };

/** `status`: the evaluation's; the turns are read again when it changes (a submission adds them). */
export function Transcript({ interviewId, highlight, status }: { interviewId: string; highlight: Highlight | null; status: string | undefined }) {
  const transcript = useQuery(recruiting.interviews.transcript.queryOptions({ id: interviewId }));
  const { refetch } = transcript;
  useEffect(() => {
    if (status) void refetch();
  }, [status, refetch]);
  const marked = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!highlight) return;
    const turn = document.getElementById(`turn-${highlight.turnId}`);
    turn?.scrollIntoView({ block: 'center' });
    turn?.focus({ preventScroll: true });
  }, [highlight]);
  return (
    <section className="card" aria-labelledby="transcript-title">
      <h2 id="transcript-title">Transcript</h2>
      <QueryView query={transcript} loading="Loading the transcript…">
        {(t) =>
          t.turns.length === 0 ? (
            <p className="muted">No turns yet: the transcript grows as the candidate answers (and is gone once erased or past retention).</p>
          ) : (
            <ol className="transcript">
              {t.turns.map((turn) => {
                const on = highlight?.turnId === turn.id ? highlight : null;
                return (
                  <li key={turn.id} id={`turn-${turn.id}`} tabIndex={-1} className={`turn turn-${turn.role}${on ? ' turn-highlighted' : ''}`}>
                    <p className="hint">{KIND_LABEL[turn.kind]} · <time dateTime={turn.at}>{formatTime(turn.at)}</time>{turn.followUpSkipped ? <> · <SkippedNote reason={turn.followUpSkipped} /></> : null}</p>
                    <p className="answer">{on ? <Marked text={turn.text} start={on.start} end={on.end} markRef={marked} /> : turn.text}</p>
                    {turn.signals ? <IntegritySignals signals={turn.signals} /> : null}
                  </li>
                );
              })}
            </ol>
          )
        }
      </QueryView>
    </section>
  );
}

/** The text with code points [start, end) in a <mark>. */
function Marked({ text, start, end, markRef }: { text: string; start: number; end: number; markRef: React.RefObject<HTMLElement | null> }) {
  const points = [...text];
  return (
    <>
      {points.slice(0, start).join('')}
      <mark ref={markRef}>{points.slice(start, end).join('')}</mark>
      {points.slice(end).join('')}
    </>
  );
}
