import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateCandidateBody, UpdateCandidateBody, type Candidate } from '@hireloop/contracts';
import { errorCode, errorExtra, errorMessage, recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { Field } from '../../components/Field.js';
import { useSaveForm } from '../../components/SaveForm.js';
import { BusyButton } from '../../components/BusyButton.js';

/** `candidates/new` and `candidates/:id/edit`: one form, validated with the contracts' schemas. */
export default function CandidateFormView() {
  const { id } = useParams();
  const candidate = useQuery({ ...recruiting.candidates.get.queryOptions({ id: id ?? '' }), enabled: Boolean(id) });
  if (!id) return <CandidateForm />;
  return (
    <QueryView query={candidate} loading="Loading the candidate…" notFound={<NoSuchResource what="candidate" list="/candidates" listLabel="Back to the candidates" />}>
      {(c) => <CandidateForm current={c} />}
    </QueryView>
  );
}

interface MetadataRow {
  key: string;
  value: string;
}

interface Values {
  name: string;
  email: string;
  phone: string;
  externalId: string;
  metadata: MetadataRow[];
}

const valuesOf = (c?: Candidate): Values => ({
  name: c?.name ?? '',
  email: c?.email ?? '',
  phone: c?.phone ?? '',
  externalId: c?.externalId ?? '',
  metadata: Object.entries(c?.metadata ?? {}).map(([key, value]) => ({ key, value })),
});

const metadataOf = (rows: MetadataRow[]) => Object.fromEntries(rows.filter((r) => r.key.trim() || r.value.trim()).map((r) => [r.key.trim(), r.value]));

/** What POST would send: blank optional fields are left out. */
function createInput(v: Values) {
  const metadata = metadataOf(v.metadata);
  return {
    name: v.name,
    email: v.email.trim(),
    ...(v.phone.trim() ? { phone: v.phone } : {}),
    ...(v.externalId.trim() ? { externalId: v.externalId } : {}),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
}

/** What PATCH would send: only what changed; a cleared field is null, a removed metadata key null. */
function changeOf(current: Candidate, v: Values) {
  const metadata: Record<string, string | null> = {};
  const next = metadataOf(v.metadata);
  for (const key of Object.keys(current.metadata)) if (!(key in next)) metadata[key] = null;
  for (const [key, value] of Object.entries(next)) if (current.metadata[key] !== value) metadata[key] = value;
  const optional = (value: string, was: string | null) => (value.trim() ? (value.trim() === was ? undefined : value) : was === null ? undefined : null);
  const change = {
    ...(v.name.trim() !== current.name ? { name: v.name } : {}),
    ...(v.email.trim() !== current.email ? { email: v.email.trim() } : {}),
    phone: optional(v.phone, current.phone),
    externalId: optional(v.externalId, current.externalId),
    ...(Object.keys(metadata).length ? { metadata } : {}),
  };
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}

function CandidateForm({ current }: { current?: Candidate }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => valuesOf(current));
  const form = useSaveForm(CreateCandidateBody, UpdateCandidateBody, Boolean(current));
  const done = (candidate: Candidate) => {
    void queryClient.invalidateQueries({ queryKey: recruiting.candidates.pathKey() });
    void navigate(`/candidates/${candidate.id}`);
  };
  const create = useMutation(recruiting.candidates.create.mutationOptions({ onSuccess: done, onError: form.onCreateError }));
  const update = useMutation(recruiting.candidates.update.mutationOptions({ onSuccess: done, onError: form.onUpdateError }));
  const mutation = current ? update : create;

  const submit = (event: FormEvent) =>
    form.submit(event, current ? { change: changeOf(current, values), update: (change) => update.mutate({ id: current.id, change }) } : { input: createInput(values), create: (input) => create.mutate(input) });
  const set = (field: keyof Omit<Values, 'metadata'>) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const setRow = (i: number, row: Partial<MetadataRow>) => setValues((v) => ({ ...v, metadata: v.metadata.map((r, j) => (j === i ? { ...r, ...row } : r)) }));
  const existingId = errorCode(mutation.error) === 'candidate_exists' ? errorExtra(mutation.error)['candidateId'] : undefined;
  const metadataError = Object.entries(form.errors).find(([path]) => path === 'metadata' || path.startsWith('metadata.'))?.[1];
  const title = current ? `Edit ${current.name}` : 'New candidate';

  return (
    <section aria-labelledby="candidate-form-title">
      <p><Link to={current ? `/candidates/${current.id}` : '/candidates'}>← {current ? current.name : 'Candidates'}</Link></p>
      <h1 id="candidate-form-title">{title}</h1>
      <form className="card" onSubmit={submit} noValidate>
        <div className="grid">
          <Field label="Name" error={form.errors['name']}>
            {(p) => <input {...p} type="text" name="name" autoComplete="off" maxLength={200} value={values.name} onChange={set('name')} />}
          </Field>
          <Field
            label="E-mail"
            hint="Unique in your organization."
            error={form.errors['email'] ?? (existingId ? 'A candidate with this e-mail exists already.' : undefined)}
          >
            {(p) => <input {...p} type="email" name="email" autoComplete="off" maxLength={254} value={values.email} onChange={set('email')} />}
          </Field>
          <Field label="Phone" optional error={form.errors['phone']}>
            {(p) => <input {...p} type="text" name="phone" inputMode="tel" autoComplete="off" maxLength={40} value={values.phone} onChange={set('phone')} />}
          </Field>
          <Field label="External id" hint="Your ATS's id for this person." optional error={form.errors['externalId']}>
            {(p) => <input {...p} type="text" name="externalId" autoComplete="off" maxLength={200} value={values.externalId} onChange={set('externalId')} />}
          </Field>
        </div>
        {typeof existingId === 'string' && (
          <p className="notice">
            <Link to={`/candidates/${existingId}`}>Open the candidate with this e-mail</Link>
          </p>
        )}
        <fieldset aria-describedby="candidate-metadata-error">
          <legend>Metadata <span className="hint">(optional: your own keys and values, at most 50)</span></legend>
          {values.metadata.map((row, i) => (
            <div className="metadata-row" key={i}>
              <Field label={`Key ${i + 1}`}>
                {(p) => <input {...p} type="text" maxLength={100} value={row.key} onChange={(e) => setRow(i, { key: e.target.value })} />}
              </Field>
              <Field label={`Value ${i + 1}`}>
                {(p) => <input {...p} type="text" maxLength={1000} value={row.value} onChange={(e) => setRow(i, { value: e.target.value })} />}
              </Field>
              <button type="button" className="secondary small" aria-label={`Remove metadata ${row.key || i + 1}`} onClick={() => setValues((v) => ({ ...v, metadata: v.metadata.filter((_, j) => j !== i) }))}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="secondary small" onClick={() => setValues((v) => ({ ...v, metadata: [...v.metadata, { key: '', value: '' }] }))}>
            Add a metadata field
          </button>
          <p className="error" id="candidate-metadata-error">{metadataError ?? ''}</p>
        </fieldset>
        <p className="error" role="alert">
          {mutation.isError && !Object.keys(form.errors).length && !existingId ? errorMessage(mutation.error) : ''}
        </p>
        {form.unchanged && <p className="muted" role="status">Nothing changed.</p>}
        <div className="actions">
          <BusyButton type="submit" busy={mutation.isPending}>{current ? 'Save changes' : 'Create candidate'}</BusyButton>
          <Link to={current ? `/candidates/${current.id}` : '/candidates'}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}
