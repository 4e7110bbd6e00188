// Schedule an interview: pick an open position and a candidate (found by name or e-mail, or a new
// one by e-mail and name); the invite URL is shown on the interview's page that follows.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { CandidateSearch, CreateInterviewBody, INTERVIEW_LANGUAGES, type Candidate, type InterviewLanguage } from '@hireloop/contracts';
import { errorMessage, recruiting } from '../../trpc.js';
import { Field, useZodForm } from '../../components/Field.js';
import { QueryView } from '../../components/PageState.js';

export default function ScheduleInterview() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(CreateInterviewBody, { positionId: 'Choose a position.', 'candidate.email': 'Enter the candidate\'s e-mail, or find the candidate above.' });
  const [positionId, setPositionId] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [duration, setDuration] = useState('30');
  const [expiresInDays, setExpiresInDays] = useState('14');
  const [language, setLanguage] = useState<InterviewLanguage>('en');
  const [extraTime, setExtraTime] = useState('0');
  const positions = useQuery(recruiting.positions.list.queryOptions({ status: 'open', limit: 100 }));
  const schedule = useMutation(recruiting.interviews.schedule.mutationOptions({
    onSuccess: (interview) => {
      void queryClient.invalidateQueries({ queryKey: recruiting.interviews.list.pathKey() });
      void navigate(`/interviews/${interview.id}`);
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = form.validate({
      positionId,
      candidate: { email: email.trim(), ...(name.trim() ? { name: name.trim() } : {}) },
      duration: Number(duration),
      expiresInDays: Number(expiresInDays),
      language,
      ...(Number(extraTime) ? { accommodations: { extraTimePercent: Number(extraTime) } } : {}),
    });
    if (input) schedule.mutate(input);
  };
  const pick = (c: Candidate) => {
    setEmail(c.email);
    setName(c.name);
  };
  return (
    <section aria-labelledby="schedule-title">
      <h1 id="schedule-title">Schedule an interview</h1>
      <p className="lead">The candidate gets an invite link to an AI interview on the position's questions. <Link to="/interviews">Back to interviews</Link></p>
      <FindCandidate onPick={pick} />
      <section className="card" aria-labelledby="schedule-form-title">
        <h2 id="schedule-form-title">Interview</h2>
        <form onSubmit={submit} noValidate>
          <QueryView query={positions} loading="Loading open positions…" isEmpty={(d) => d.items.length === 0} empty={<>No open position. <Link to="/positions">Create or reopen one</Link> first.</>}>
            {(data) => (
              <Field label="Position" error={form.errors['positionId']}>
                {(p) => (
                  <select {...p} name="positionId" value={positionId} onChange={(e) => setPositionId(e.target.value)}>
                    <option value="">Choose a position</option>
                    {data.items.map((position) => <option key={position.id} value={position.id}>{position.title}</option>)}
                  </select>
                )}
              </Field>
            )}
          </QueryView>
          <Field label="Candidate e-mail" error={form.errors['candidate.email']}>
            {(p) => <input {...p} name="email" type="email" maxLength={254} autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Field label="Candidate name" hint="Needed when no candidate has this e-mail yet: one is created." optional error={form.errors['candidate.name']}>
            {(p) => <input {...p} name="name" type="text" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <div className="grid">
            <Field label="Duration (minutes)" error={form.errors['duration']}>
              {(p) => <input {...p} name="duration" type="number" min={5} max={180} step={1} inputMode="numeric" value={duration} onChange={(e) => setDuration(e.target.value)} />}
            </Field>
            <Field label="Invite expires after (days)" error={form.errors['expiresInDays']}>
              {(p) => <input {...p} name="expiresInDays" type="number" min={1} max={90} step={1} inputMode="numeric" value={expiresInDays} onChange={(e) => setExpiresInDays(e.target.value)} />}
            </Field>
            <Field label="Language" hint="Of the invite page, the AI notice and the follow-up questions." error={form.errors['language']}>
              {(p) => (
                <select {...p} name="language" value={language} onChange={(e) => setLanguage(e.target.value as InterviewLanguage)}>
                  {INTERVIEW_LANGUAGES.map((l) => <option key={l} value={l}>{l === 'de' ? 'German' : 'English'}</option>)}
                </select>
              )}
            </Field>
            <Field label="Extra time (%)" hint="An accommodation: added to the duration, 0–100." error={form.errors['accommodations.extraTimePercent']}>
              {(p) => <input {...p} name="extraTimePercent" type="number" min={0} max={100} step={5} inputMode="numeric" value={extraTime} onChange={(e) => setExtraTime(e.target.value)} />}
            </Field>
          </div>
          <p className="error" role="alert">{schedule.isError && !Object.keys(form.errors).length ? errorMessage(schedule.error) : ''}</p>
          <button type="submit" disabled={schedule.isPending}>Schedule interview</button>
        </form>
      </section>
    </section>
  );
}

/** Finds existing candidates by words of their name or e-mail; picking one fills the form. */
function FindCandidate({ onPick }: { onPick: (candidate: Candidate) => void }) {
  const [text, setText] = useState('');
  const parsed = CandidateSearch.safeParse(text);
  const search = parsed.success ? parsed.data : undefined;
  const found = useQuery({ ...recruiting.candidates.list.queryOptions({ search: search ?? '', limit: 10 }), enabled: search !== undefined });
  return (
    <section className="card" aria-labelledby="find-candidate-title">
      <h2 id="find-candidate-title">Find a candidate</h2>
      <Field label="Name or e-mail" hint="Or type a new candidate's e-mail and name below.">
        {(p) => <input {...p} name="search" type="search" maxLength={200} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      {search !== undefined && (
        <QueryView query={found} isEmpty={(d) => d.items.length === 0} empty="No candidate matches.">
          {(data) => (
            <ul className="chips" aria-label="Matching candidates">
              {data.items.map((c) => (
                <li key={c.id}>
                  <button type="button" className="secondary small" onClick={() => onPick(c)}>
                    {c.name} <span className="hint">{c.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      )}
    </section>
  );
}
