// A flow's pipeline board (PRODUCT.md §7 "The pipeline"): its stages as columns, its enrollments as
// cards. A card moves with its own "Move to" select (keyboard and screen readers), or by dragging
// it onto another column; it ends with Complete or Withdraw after a confirmation. Each column
// pages through its own enrollments (flows.enrollments with stageId), and the calls of one render
// go out as one batched request.
import { useRef, useState, type DragEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { EnrollmentCard, EnrollmentStatus, FlowId, type HiringFlow, type MoveEnrollmentBody } from '@hireloop/contracts';
import { errorCode, errorMessage, recruiting } from '../../trpc.js';
import { routes } from '../../routes.js';
import { QueryView } from '../../components/PageState.js';
import { Pager, useCursorPages } from '../../components/Pager.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { formatTime } from '../../components/format.js';
import { kindLabel, orderedStages } from './stages.js';
import { EnrollCandidate } from './EnrollCandidate.js';
import './flows.css';
import { BusyButton } from '../../components/BusyButton.js';
import { useSearchParamsNow } from '../../components/searchParams.js';

const PAGE_SIZE = 25;
type Stage = HiringFlow['stages'][number];
type Status = EnrollmentCard['status'];
const STATUS_LABEL: Record<Status, string> = { active: 'Active', completed: 'Completed', withdrawn: 'Withdrawn' };
const DRAG_TYPE = 'application/x-hireloop-enrollment';
// Cards link to the candidate's profile and the interview when the console has those views.
const interviewRoute = routes.some((r) => r.path === 'interviews/:id');
const candidateRoute = routes.some((r) => r.path === 'candidates/:id');

/** Dropped data can come from anywhere: unreadable is nothing. */
function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export default function FlowBoardView() {
  const { id = '' } = useParams();
  if (!FlowId.safeParse(id).success) return <NoSuchResource what="hiring flow" list="/flows" listLabel="Back to the hiring flows" />;
  return <FlowBoard id={id} />;
}

function FlowBoard({ id }: { id: string }) {
  const flow = useQuery(recruiting.flows.get.queryOptions({ id }));
  return (
    <QueryView query={flow} loading="Loading the flow…" notFound={<NoSuchResource what="hiring flow" list="/flows" listLabel="Back to the hiring flows" />}>
      {(f) => <Board flow={f} />}
    </QueryView>
  );
}

/** One message line for the board's outcomes; it takes focus when the card that had it moved away. */
function useAnnouncer(initial: string) {
  const [message, setMessage] = useState<{ text: string; error: boolean }>({ text: initial, error: false });
  const ref = useRef<HTMLParagraphElement>(null);
  const say = (text: string, error = false, focus = false) => {
    setMessage({ text, error });
    if (focus) requestAnimationFrame(() => ref.current?.focus());
  };
  const line = (
    <p ref={ref} tabIndex={-1} className={message.error ? 'error board-status' : 'status board-status'} role={message.error ? 'alert' : 'status'} aria-live="polite">
      {message.text}
    </p>
  );
  return { say, line };
}

function Board({ flow }: { flow: HiringFlow }) {
  const location = useLocation();
  const [params, setParams] = useSearchParamsNow();
  const parsed = EnrollmentStatus.safeParse(params.get('status') ?? 'active');
  const status: Status = parsed.success ? parsed.data : 'active';
  const stages = orderedStages(flow);
  const queryClient = useQueryClient();
  const announcer = useAnnouncer((location.state as { status?: string } | null)?.status ?? '');
  const [ending, setEnding] = useState<{ card: EnrollmentCard; status: 'completed' | 'withdrawn' } | null>(null);
  const move = useMutation(recruiting.flows.move.mutationOptions({
    onSettled: () => void queryClient.invalidateQueries({ queryKey: recruiting.flows.enrollments.pathKey() }),
  }));

  const apply = (card: EnrollmentCard, change: MoveEnrollmentBody, done?: () => void) => {
    const who = card.candidate.name;
    const stageName = stages.find((s) => s.id === change.stageId)?.name ?? '';
    move.mutate({ flowId: flow.id, enrollmentId: card.id, move: change }, {
      onSuccess: () => {
        done?.();
        announcer.say(change.stageId ? `${who} moved to ${stageName}.` : `${who}: ${change.status === 'completed' ? 'completed' : 'withdrawn'}.`, false, true);
      },
      onError: (error) => {
        done?.();
        const why = errorCode(error) === 'enrollment_ended' ? 'the enrollment has already ended.' : errorMessage(error);
        announcer.say(`Could not move ${who}: ${why}`, true, true);
      },
    });
  };

  return (
    <section aria-labelledby="board-title" className="flow-board">
      <p><Link to="/flows">← Hiring flows</Link></p>
      <div className="card-head">
        <h1 id="board-title">{flow.name}</h1>
        <Link to={`/flows/${flow.id}/edit`}>Edit flow</Link>
      </div>
      {flow.description && <p className="lead">{flow.description}</p>}
      <EnrollCandidate flow={flow} onEnrolled={(name) => announcer.say(`${name} enrolled in ${stages[0]?.name ?? 'the first stage'}.`)} />
      <div className="card-head board-head">
        <h2>Pipeline</h2>
        <label className="inline-field">
          Show{' '}
          <select value={status} onChange={(e) => setParams(e.target.value === 'active' ? {} : { status: e.target.value }, { replace: true })}>
            {EnrollmentStatus.options.map((s) => <option key={s} value={s}>{STATUS_LABEL[s]}</option>)}
          </select>
        </label>
      </div>
      {announcer.line}
      <div className="board" role="region" aria-label={`Stages of ${flow.name}`} tabIndex={0}>
        {stages.map((stage) => (
          <StageColumn key={`${stage.id}:${status}`} flow={flow} stage={stage} stages={stages} status={status} busy={move.isPending} onMove={apply} onEnd={(card, end) => setEnding({ card, status: end })} />
        ))}
      </div>
      <ConfirmDialog
        open={ending !== null}
        title={ending?.status === 'withdrawn' ? `Withdraw ${ending.card.candidate.name}?` : `Mark ${ending?.card.candidate.name ?? ''} as completed?`}
        confirmLabel={ending?.status === 'withdrawn' ? 'Withdraw' : 'Complete'}
        danger={ending?.status === 'withdrawn'}
        busy={move.isPending}
        onCancel={() => setEnding(null)}
        onConfirm={() => ending && apply(ending.card, { status: ending.status }, () => setEnding(null))}
      >
        <p>The enrollment ends and the card leaves the active pipeline. It cannot be moved again.</p>
      </ConfirmDialog>
    </section>
  );
}

function StageColumn({ flow, stage, stages, status, busy, onMove, onEnd }: {
  flow: HiringFlow;
  stage: Stage;
  stages: Stage[];
  status: Status;
  busy: boolean;
  onMove: (card: EnrollmentCard, change: MoveEnrollmentBody) => void;
  onEnd: (card: EnrollmentCard, end: 'completed' | 'withdrawn') => void;
}) {
  const pages = useCursorPages();
  const [over, setOver] = useState(false);
  const list = useQuery({
    ...recruiting.flows.enrollments.queryOptions({ flowId: flow.id, query: { limit: PAGE_SIZE, stageId: stage.id, status, ...(pages.cursor ? { cursor: pages.cursor } : {}) } }),
    placeholderData: keepPreviousData,
  });
  // Dragging is a shortcut for pointer users; the select on each card does the same.
  const dropTarget = status === 'active' ? {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      setOver(false);
      const raw = e.dataTransfer.getData(DRAG_TYPE);
      if (!raw) return;
      e.preventDefault();
      const card = EnrollmentCard.safeParse(safeJson(raw));
      if (card.success && card.data.stageId !== stage.id) onMove(card.data, { stageId: stage.id });
    },
  } : {};
  const headingId = `stage-${stage.id}`;
  return (
    <section className={over ? 'board-column drop' : 'board-column'} aria-labelledby={headingId} {...dropTarget}>
      <h3 id={headingId}>
        {stage.name} <span className="hint">{kindLabel(stage.kind)}</span>
      </h3>
      <QueryView query={list} isEmpty={(d) => d.items.length === 0 && pages.page === 1} empty="Nobody here." loading="Loading…">
        {(data) => (
          <>
            <ul className="board-cards">
              {data.items.map((card) => <Card key={card.id} card={card} stage={stage} stages={stages} busy={busy} onMove={onMove} onEnd={onEnd} />)}
            </ul>
            <Pager pages={pages} nextCursor={data.nextCursor} label={`Pages of ${stage.name}`} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function Card({ card, stage, stages, busy, onMove, onEnd }: {
  card: EnrollmentCard;
  stage: Stage;
  stages: Stage[];
  busy: boolean;
  onMove: (card: EnrollmentCard, change: MoveEnrollmentBody) => void;
  onEnd: (card: EnrollmentCard, end: 'completed' | 'withdrawn') => void;
}) {
  const others = stages.filter((s) => s.id !== stage.id);
  const after = stages.slice(stages.findIndex((s) => s.id === stage.id) + 1)[0];
  const [target, setTarget] = useState((after ?? others[0])?.id ?? '');
  const name = card.candidate.name;
  const active = card.status === 'active';
  const selectId = `move-${card.id}`;
  return (
    <li
      className="board-card"
      draggable={active}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(card));
        e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <article aria-label={name}>
        <h4>{candidateRoute ? <Link to={`/candidates/${card.candidateId}`}>{name}</Link> : name}</h4>
        <p className="hint card-email">{card.candidate.email}</p>
        <p className="hint">
          {card.movedAt === card.enrolledAt ? `Enrolled ${formatTime(card.enrolledAt)}` : `Moved ${formatTime(card.movedAt)}`}
          {!active && <> · <span className="badge badge-muted">{STATUS_LABEL[card.status]}</span></>}
        </p>
        {card.interviewId && (
          <p className="hint">AI interview: {interviewRoute ? <Link to={`/interviews/${card.interviewId}`}>{card.interviewId}</Link> : <code>{card.interviewId}</code>}</p>
        )}
        {active && (
          <>
            {others.length > 0 && (
              <form className="card-move" onSubmit={(e) => { e.preventDefault(); if (target && !busy) onMove(card, { stageId: target }); }}>
                <label htmlFor={selectId}>Move <span className="visually-hidden">{name} </span>to</label>
                <span className="card-move-row">
                  <select id={selectId} value={target} onChange={(e) => setTarget(e.target.value)}>
                    {others.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
                  </select>
                  <BusyButton type="submit" className="small" busy={busy} aria-label={`Move ${name}`}>Move</BusyButton>
                </span>
              </form>
            )}
            <span className="actions">
              <BusyButton className="secondary small" busy={busy} onClick={() => onEnd(card, 'completed')} aria-label={`Complete ${name}`}>Complete</BusyButton>
              <BusyButton className="danger small" busy={busy} onClick={() => onEnd(card, 'withdrawn')} aria-label={`Withdraw ${name}`}>Withdraw</BusyButton>
            </span>
          </>
        )}
      </article>
    </li>
  );
}
