// Create or edit a hiring flow (the recruiting router's flows.create / flows.update): a name, an
// optional position and 1–20 ordered stages. Validated with the contracts' FlowInput before it is
// sent; the service's refusals (an ai_interview stage without a position, stages that can no
// longer change because candidates are enrolled) come back onto the same fields.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { FlowId, FlowInput, type HiringFlow } from '@hireloop/contracts';
import { errorDetails, errorMessage, recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { Field, fieldErrorsOf, useZodForm } from '../../components/Field.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { StagesEditor, stageRow, type StageRow } from './StagesEditor.js';
import { orderedStages } from './stages.js';
import { positionChoices } from './positions.js';
import './flows.css';
import { BusyButton } from '../../components/BusyButton.js';

export default function FlowEditorView() {
  const { id } = useParams();
  if (id === undefined) return <FlowForm />;
  if (!FlowId.safeParse(id).success) return <NoSuchResource what="hiring flow" list="/flows" listLabel="Back to the hiring flows" />;
  return <EditFlow id={id} />;
}

function EditFlow({ id }: { id: string }) {
  const flow = useQuery(recruiting.flows.get.queryOptions({ id }));
  return <QueryView query={flow} loading="Loading the flow…" notFound={<NoSuchResource what="hiring flow" list="/flows" listLabel="Back to the hiring flows" />}>{(f) => <FlowForm flow={f} />}</QueryView>;
}

function FlowForm({ flow }: { flow?: HiringFlow }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(FlowInput);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [name, setName] = useState(flow?.name ?? '');
  const [description, setDescription] = useState(flow?.description ?? '');
  const [positionId, setPositionId] = useState(flow?.positionId ?? '');
  const [stages, setStages] = useState<StageRow[]>(() => (flow ? orderedStages(flow).map((s) => stageRow(s.name, s.kind)) : [stageRow('Screening', 'screen')]));
  const positions = useQuery(positionChoices());
  const done = (saved: HiringFlow) => {
    void queryClient.invalidateQueries({ queryKey: recruiting.flows.pathKey() });
    void navigate(`/flows/${saved.id}`, { state: { status: flow ? `Saved the flow “${saved.name}”.` : `Created the flow “${saved.name}”.` } });
  };
  const refused = (error: unknown) =>
    setServerErrors(fieldErrorsOf(errorDetails(error).map((d) => ({ path: d.path.replace(/^(flow|body)\./, ''), message: d.message }))));
  const create = useMutation(recruiting.flows.create.mutationOptions({ onSuccess: done, onError: refused }));
  const update = useMutation(recruiting.flows.update.mutationOptions({ onSuccess: done, onError: refused }));
  const saving = create.isPending || update.isPending;
  const failed = create.error ?? update.error;
  const errors = { ...serverErrors, ...form.errors };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setServerErrors({});
    const input = form.validate({
      name,
      ...(description.trim() ? { description } : {}),
      ...(positionId ? { positionId } : {}),
      stages: stages.map(({ name: n, kind }) => ({ name: n, kind })),
    });
    if (!input) return;
    if (flow) update.mutate({ id: flow.id, flow: input });
    else create.mutate(input);
  };

  // A flow may name a position that is not among the choices (older than the first 100).
  const choices = positions.data?.items ?? [];
  const extra = positionId && !choices.some((p) => p.id === positionId) ? [{ id: positionId, title: positionId }] : [];
  const title = flow ? `Edit “${flow.name}”` : 'New hiring flow';
  return (
    <section aria-labelledby="flow-form-title" className="flow-editor">
      <p><Link to={flow ? `/flows/${flow.id}` : '/flows'}>← {flow ? 'Back to the pipeline' : 'Hiring flows'}</Link></p>
      <h1 id="flow-form-title">{title}</h1>
      <form className="card" onSubmit={submit} noValidate>
        <Field label="Name" error={errors['name']}>
          {(p) => <input {...p} name="name" type="text" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Description" optional error={errors['description']}>
          {(p) => <textarea {...p} name="description" rows={2} maxLength={20_000} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <Field label="Position" optional hint="Required when a stage is an AI interview: entering that stage schedules an interview for this position." error={errors['positionId']}>
          {(p) => (
            <select {...p} name="positionId" value={positionId} onChange={(e) => setPositionId(e.target.value)}>
              <option value="">No position</option>
              {[...extra, ...choices].map((pos) => <option key={pos.id} value={pos.id}>{pos.title}</option>)}
            </select>
          )}
        </Field>
        {positions.isError && <p className="error">The positions could not be loaded: {errorMessage(positions.error)}</p>}
        <StagesEditor stages={stages} onChange={setStages} errors={errors} />
        {flow && <p className="hint">Stages can be renamed, reordered or replaced only while nobody is enrolled in the flow.</p>}
        <p className="error" role="alert">{failed && !Object.keys(serverErrors).length ? errorMessage(failed) : ''}</p>
        <div className="actions">
          <BusyButton type="submit" busy={saving}>{flow ? 'Save changes' : 'Create flow'}</BusyButton>
          <Link to={flow ? `/flows/${flow.id}` : '/flows'}>Cancel</Link>
        </div>
      </form>
    </section>
  );
}
