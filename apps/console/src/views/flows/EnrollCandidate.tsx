// Enroll a candidate into a flow: find them by name or e-mail (candidates.list with `search`) and
// pick one, or give the e-mail and name of someone new (found by e-mail if they exist after all).
// The enrollment starts in the flow's first stage (flows.enroll).
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CandidateSearch, EnrollNewCandidate, type HiringFlow } from '@hireloop/contracts';
import { errorCode, errorMessage, recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { Field, useZodForm } from '../../components/Field.js';
import { BusyButton } from '../../components/BusyButton.js';

const SearchForm = z.object({ search: CandidateSearch });
const RESULTS = 10;

export function EnrollCandidate({ flow, onEnrolled }: { flow: HiringFlow; onEnrolled: (name: string) => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(SearchForm);
  const [term, setTerm] = useState('');
  const [search, setSearch] = useState<string | null>(null);
  const [refusal, setRefusal] = useState('');
  const results = useQuery({ ...recruiting.candidates.list.queryOptions({ limit: RESULTS, search: search ?? '' }), enabled: search !== null });
  const enroll = useMutation(recruiting.flows.enroll.mutationOptions({
    onSettled: () => void queryClient.invalidateQueries({ queryKey: recruiting.flows.enrollments.pathKey() }),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal('');
    const input = form.validate({ search: term });
    if (input) setSearch(input.search);
  };
  const enrollAs = (body: { candidateId: string } | { candidate: { email: string; name: string } }, name: string, done?: () => void) => {
    setRefusal('');
    enroll.mutate({ flowId: flow.id, body }, {
      onSuccess: () => {
        done?.();
        onEnrolled(name);
      },
      onError: (error) => setRefusal(errorCode(error) === 'already_enrolled' ? `${name} is already in this flow.` : errorMessage(error)),
    });
  };
  return (
    <section className="card" aria-labelledby="enroll-title">
      <h2 id="enroll-title">Enroll a candidate</h2>
      <form className="enroll-search" role="search" onSubmit={submit} noValidate>
        <Field label="Find a candidate" hint="Name or e-mail; each word matches the start of a word." error={form.errors['search']}>
          {(p) => <input {...p} type="search" name="search" maxLength={200} autoComplete="off" value={term} onChange={(e) => setTerm(e.target.value)} />}
        </Field>
        <button type="submit" className="secondary">Search</button>
      </form>
      <p className="error" role="alert">{refusal}</p>
      {search !== null && (
        <QueryView query={results} isEmpty={(d) => d.items.length === 0} empty={`No candidate matches “${search}”.`} loading="Searching…">
          {(data) => (
            <ul className="enroll-results" aria-label="Matching candidates">
              {data.items.map((c) => (
                <li key={c.id}>
                  <span><strong>{c.name}</strong> <span className="hint card-email">{c.email}</span></span>
                  <BusyButton className="small" busy={enroll.isPending} onClick={() => enrollAs({ candidateId: c.id }, c.name)} aria-label={`Enroll ${c.name}`}>Enroll</BusyButton>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      )}
      {search !== null && results.data?.nextCursor && <p className="hint">Only the first {RESULTS} matches are shown; add a word to narrow the search.</p>}
      <NewCandidate busy={enroll.isPending} onAttempt={() => setRefusal('')} onSubmit={(candidate, done) => enrollAs({ candidate }, candidate.name, done)} />
    </section>
  );
}

/**
 * Someone not in Hireloop yet: e-mail and name (an existing e-mail enrolls that candidate).
 * `onAttempt` on every submit, valid or not, so the last refusal does not stay beside new errors.
 */
function NewCandidate({ busy, onAttempt, onSubmit }: {
  busy: boolean;
  onAttempt: () => void;
  onSubmit: (candidate: { email: string; name: string }, done: () => void) => void;
}) {
  const form = useZodForm(EnrollNewCandidate);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    onAttempt();
    const input = form.validate({ email, name });
    if (input) onSubmit(input, () => { setEmail(''); setName(''); });
  };
  return (
    <details className="enroll-new">
      <summary>Someone new</summary>
      <form onSubmit={submit} noValidate>
        <Field label="E-mail" error={form.errors['email']}>
          {(p) => <input {...p} type="email" name="email" maxLength={254} autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Name" error={form.errors['name']}>
          {(p) => <input {...p} type="text" name="name" maxLength={200} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <BusyButton type="submit" busy={busy}>Enroll new candidate</BusyButton>
      </form>
    </details>
  );
}

