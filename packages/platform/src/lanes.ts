/**
 * Work lanes (ARCHITECTURE.md): each kind of Temporal work has a task queue, and so worker slots,
 * of its own, so that a backlog of one kind never delays another (a storm of webhook retries does
 * not hold up an evaluation or an erasure). This module is the one owner of the lane names: every
 * process that starts a workflow or polls a queue takes the queue from here.
 *
 * A deployment is named by `TEMPORAL_TASK_QUEUE` (`hireloop`); its lanes are that name with the
 * lane's suffix, as the Temporal UI shows them: `hireloop-deliveries`, `hireloop-ai`,
 * `hireloop-erasure`, `hireloop-ats`. The `general` lane is the bare name: the queue every
 * workflow ran on before lanes existed, so workflows started then finish there, and small
 * operational workflows (`ping`) run there. Later kinds of work (e-mail among them) get a lane of
 * their own here.
 */
export const LANES = {
  /** Work of no lane: workflows started before lanes existed, `ping`. */
  general: '',
  /** Webhook deliveries: the retry loop of each failing endpoint (`endpoint:<webhook>`). */
  deliveries: 'deliveries',
  /** AI work: interview evaluations, job descriptions, and the interviewer's later work. */
  ai: 'ai',
  /** Erasure and retention: `erase:<candidate>` and the `purge-*` schedules. */
  erasure: 'erasure',
  /** Inbound ATS events (`ats:<event>`). */
  ats: 'ats',
} as const;

export type Lane = keyof typeof LANES;
export const LANE_NAMES = Object.keys(LANES) as Lane[];

/** The task queue of `lane` in the deployment named `deployment` (its TEMPORAL_TASK_QUEUE). */
export function laneQueue(deployment: string, lane: Lane): string {
  const suffix = LANES[lane];
  return suffix ? `${deployment}-${suffix}` : deployment;
}

/** Every lane's task queue of a deployment, by lane. */
export function laneQueues(deployment: string): Record<Lane, string> {
  return Object.fromEntries(LANE_NAMES.map((lane) => [lane, laneQueue(deployment, lane)])) as Record<Lane, string>;
}

/** `deliveries,ai` → the lanes named (a worker's `WORKER_LANES`); throws on an unknown name. */
export function parseLanes(list: string): Lane[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) if (!(name in LANES)) throw new Error(`unknown lane "${name}" (lanes: ${LANE_NAMES.join(', ')})`);
  return [...new Set(names)] as Lane[];
}
