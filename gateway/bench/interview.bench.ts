import { cpus, loadavg } from 'node:os';
import { serviceFetch } from '@hireloop/platform/service-fetch';
import { step } from '@hireloop/devstack/log';
import { startOpenAiTestServer, turnsIn, type RecordedRequest } from '@hireloop/devstack/openai-test-server';
import {
  cpuBetween, HAS_PROC, loadNote, machineDescription, newOrganization, otherWorkloads, percentile, runBench, snapshotCpu, stackCpuSources, type Bench, type CpuSource, type CpuUsage,
} from './bench-kit.js';

/**
 * `npm run bench:interview` (issue 22): candidates take the AI interview concurrently, as a
 * browser without JavaScript would (each turn: POST the answer form, follow the 303, GET the
 * page with the next turn), or, with BENCH_INTERVIEW_CLIENT=script, as the page's script does
 * (each turn: POST the answer with `Prefer: return=representation`, whose answer is the page). 5 scripted questions, each with one follow-up, so 10 answers per
 * candidate; every first answer to a question waits for the follow-up from the OpenAI-compatible
 * test server, which answers after a fixed 300 ms (AI_LATENCY_MS), through the real openai SDK in
 * recruiting. The worker's evaluations go to the same server.
 *
 * Reported per run (50, then 200 concurrent candidates):
 * - the platform's share of each turn: the turn's latency (POST → the next page read) minus the
 *   300 ms the AI took, for turns that waited for a follow-up; the latency itself for the others;
 * - CPU ms per turn of every process of the stack (from /proc), and of the bench with the AI server:
 *   in the walk's steady state (SteadyWindow: no start and no evaluation in it), and over the
 *   whole walk; then per candidate after the walk, until every evaluation completed;
 * - from each candidate's last answer to its evaluation's `completedAt` (the evaluation.completed
 *   event is written with it).
 */
const RUNS = (process.env['BENCH_INTERVIEW_CANDIDATES'] ?? '50,200').split(',').map(Number);
const QUESTIONS = 5;
const AI_LATENCY_MS = 300;
/**
 * Mean pause of a candidate between reading a turn and sending the answer (BENCH_THINK_MS; 0:
 * none). Each pause is drawn from 0.5–1.5 × the mean, so that candidates who started together do
 * not keep answering in lockstep (bursts of every candidate at once, which no real group makes).
 */
const THINK_MS = Number(process.env['BENCH_THINK_MS'] ?? '0');
const WARMUP_CANDIDATES = 10;
/** `form` (JavaScript off: POST, 303, GET) or `script` (the page's script: the POST answers with the page). */
const CLIENT = process.env['BENCH_INTERVIEW_CLIENT'] === 'script' ? 'script' : 'form';
const EVALUATION_TIMEOUT_MS = 300_000;
const ANSWER = 'In my last team I owned the release pipeline, cut its time from an hour to ten minutes, and measured fewer failed deploys afterwards.';
const FOLLOW_UP = 'Could you give a concrete example of what you did yourself?';

/** The test server's answer to anything unscripted: a follow-up, or an evaluation quoting the first answer. */
function reply(request: RecordedRequest): string {
  const format = request.body.response_format as { json_schema?: { name?: string } } | undefined;
  if (format?.json_schema?.name === 'interview_follow_up') return JSON.stringify({ followUp: FOLLOW_UP });
  const answer = turnsIn(request).find((t) => t.role === 'candidate');
  const quotes = answer ? [{ turnId: answer.turnId, quote: answer.text.split(' ').slice(0, 6).join(' ') }] : [];
  return JSON.stringify({ competencies: ['communication', 'problem_solving', 'collaboration', 'ownership'].map((key) => ({ key, score: 4, rationale: 'Benchmark.', quotes })) });
}

// The stack's recruiting and worker use the test server: its address must be in the environment
// the stack starts with.
const ai = await startOpenAiTestServer(reply);
ai.latency(AI_LATENCY_MS);
process.env['OPENAI_API_KEY'] = 'sk-bench';
process.env['OPENAI_BASE_URL'] = ai.baseUrl;
process.env['OPENAI_MODEL'] = 'bench-model';

interface Turn {
  /** POST sent → the next page read. */
  ms: number;
  /** When the next page was read (performance.now()). */
  at: number;
  /** Whether the answer waited for a follow-up from the AI. */
  ai: boolean;
  /** Whether it was the candidate's last answer: it ends the interview and starts its evaluation. */
  last: boolean;
}

/**
 * The walk's steady state: from the moment every candidate has answered once (every start done)
 * to the moment the first candidate sends its last answer (no evaluation started yet). Its CPU
 * is what turns cost with nothing else running beside them but the stack's background.
 */
class SteadyWindow {
  private answeredOnce = 0;
  private opened: { at: number; cpu: ReturnType<typeof snapshotCpu> } | null = null;
  private closed: { at: number; cpu: ReturnType<typeof snapshotCpu> } | null = null;
  constructor(private readonly candidates: number, private readonly sources: CpuSource[] | null) {}
  firstAnswerRead(): void {
    if (++this.answeredOnce === this.candidates && this.sources) this.opened = { at: performance.now(), cpu: snapshotCpu(this.sources) };
  }
  lastAnswerSending(): void {
    if (!this.closed && this.opened && this.sources) this.closed = { at: performance.now(), cpu: snapshotCpu(this.sources) };
  }
  /** CPU in the window and the turns that ended in it; null when it never opened before it closed. */
  usage(turns: Turn[]): { cpu: CpuUsage; turns: Turn[] } | null {
    if (!this.opened || !this.closed) return null;
    const { opened, closed } = this;
    return { cpu: cpuBetween(opened.cpu, closed.cpu), turns: turns.filter((t) => t.at > opened.at && t.at <= closed.at) };
  }
}

interface Candidate {
  interviewId: string;
  token: string;
  turns: Turn[];
  lastAnswerAt: number;
}

async function http(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await serviceFetch(url, init);
  return { status: res.status, text: await res.text() };
}

const turnIdOf = (html: string) => html.match(/name="turn" value="([^"]+)"/)?.[1] ?? null;

/** One candidate from consent to the last answer, each turn timed from the POST to the next page. */
async function takeInterview(base: string, candidate: Candidate, steady: SteadyWindow): Promise<void> {
  const page = `${base}/i/${candidate.token}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const started = await http(`${page}/start`, { method: 'POST', headers: form, body: 'consent=agree&notice=ai-notice-2026-12' });
  if (started.status !== 303) throw new Error(`start answered ${started.status}`);
  let html = (await http(page)).text;
  for (let question = 0; question < QUESTIONS; question++) {
    for (const isFirst of [true, false]) {
      const turn = turnIdOf(html);
      if (!turn) throw new Error(`no turn to answer (question ${question + 1})`);
      if (THINK_MS) await new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));
      if (question === QUESTIONS - 1 && !isFirst) steady.lastAnswerSending();
      const sent = performance.now();
      const body = new URLSearchParams({ turn, answer: ANSWER }).toString();
      if (CLIENT === 'script') {
        const posted = await http(`${page}/answer`, { method: 'POST', headers: { ...form, prefer: 'return=representation' }, body });
        if (posted.status !== 200) throw new Error(`answer answered ${posted.status}`);
        html = posted.text;
      } else {
        const posted = await http(`${page}/answer`, { method: 'POST', headers: form, body });
        if (posted.status !== 303) throw new Error(`answer answered ${posted.status}`);
        html = (await http(page)).text;
      }
      const read = performance.now();
      candidate.turns.push({ ms: read - sent, at: read, ai: isFirst, last: question === QUESTIONS - 1 && !isFirst });
      if (question === 0 && isFirst) steady.firstAnswerRead();
      candidate.lastAnswerAt = Date.now();
    }
  }
  if (!html.includes('id="done"')) throw new Error('the interview did not end after the last answer');
}

interface RunResult {
  candidates: number;
  turns: Turn[];
  wallMs: number;
  cpu: CpuUsage | null;
  /** The steady state's CPU and the turns in it (see SteadyWindow). */
  steady: { cpu: CpuUsage; turns: Turn[] } | null;
  /** From the end of the walk until every evaluation completed (with this process's polling for them). */
  evaluationCpu: CpuUsage | null;
  toEvaluation: number[];
  evaluationsMissing: number;
}

async function run(bench: Bench, key: string, positionId: string, count: number, measured: boolean): Promise<RunResult> {
  const api = (method: string, path: string, body?: unknown) =>
    http(`${bench.gatewayUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const candidates: Candidate[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api('POST', '/interviews', { positionId, candidate: { email: `bench-${count}-${i}-${Date.now()}@bench.example`, name: `Candidate ${i}` } });
    if (res.status !== 201) throw new Error(`schedule answered ${res.status}: ${res.text}`);
    const interview = (JSON.parse(res.text) as { data: { id: string; inviteUrl: string } }).data;
    candidates.push({ interviewId: interview.id, token: new URL(interview.inviteUrl).pathname.split('/').pop()!, turns: [], lastAnswerAt: 0 });
  }
  if (measured) step(`${count} candidates at once: 5 questions, a follow-up each (10 answers per candidate)`);
  const sources = stackCpuSources(bench);
  const before = HAS_PROC ? snapshotCpu(sources) : null;
  const steady = new SteadyWindow(count, before ? sources : null);
  const started = performance.now();
  await Promise.all(candidates.map((c) => takeInterview(bench.gatewayUrl, c, steady)));
  const wallMs = performance.now() - started;
  const walked = before ? snapshotCpu(sources) : null;
  const cpu = before && walked ? cpuBetween(before, walked) : null;
  // From the last answer to evaluation.completed (the evaluation's completedAt).
  const toEvaluation: number[] = [];
  const deadline = Date.now() + EVALUATION_TIMEOUT_MS;
  let pending = candidates;
  while (pending.length && Date.now() < deadline) {
    const still: Candidate[] = [];
    for (const c of pending) {
      const evaluation = (JSON.parse((await api('GET', `/interviews/${c.interviewId}/evaluation`)).text) as { data: { status: string; completedAt: string | null } }).data;
      if (evaluation.status === 'completed' && evaluation.completedAt) toEvaluation.push(Date.parse(evaluation.completedAt) - c.lastAnswerAt);
      else if (evaluation.status !== 'failed') still.push(c);
    }
    pending = still;
    if (pending.length) await new Promise((r) => setTimeout(r, 500));
  }
  const evaluationCpu = walked ? cpuBetween(walked, snapshotCpu(sources)) : null;
  const turns = candidates.flatMap((c) => c.turns);
  return { candidates: count, turns, wallMs, cpu, steady: steady.usage(turns), evaluationCpu, toEvaluation, evaluationsMissing: count - toEvaluation.length };
}

await runBench('bench-interview', async (bench) => {
  bench.onCleanup(() => ai.close());
  const busy = otherWorkloads();
  const load = [loadavg().map((l) => l.toFixed(2)).join(', ')];
  const org = await newOrganization(bench, 'Interview bench', ['read', 'write']);
  const position = await http(`${bench.gatewayUrl}/api/v1/positions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.apiKey.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Bench Engineer', questions: Array.from({ length: QUESTIONS }, (_, i) => ({ text: `Bench question ${i + 1}: tell us about your work.`, maxFollowUps: 1 })) }),
  });
  if (position.status !== 201) throw new Error(`position answered ${position.status}: ${position.text}`);
  const positionId = (JSON.parse(position.text) as { data: { id: string } }).data.id;
  step('Warm-up (not measured)');
  await run(bench, org.apiKey.key, positionId, WARMUP_CANDIDATES, false);
  const results: RunResult[] = [];
  for (const count of RUNS) results.push(await run(bench, org.apiKey.key, positionId, count, true));
  busy.push(...otherWorkloads());
  load.push(loadavg().map((l) => l.toFixed(2)).join(', '));

  const ms = (v: number) => (Number.isNaN(v) ? '–' : String(Math.round(v)));
  const share = (t: Turn) => (t.ai ? t.ms - AI_LATENCY_MS : t.ms);
  const names = stackCpuSources(bench).map((s) => s.name);
  const platform = names.filter((n) => n !== 'bench');
  const lines = [
    `Command: \`npm run bench:interview\`${[THINK_MS ? `BENCH_THINK_MS=${THINK_MS}` : '', CLIENT === 'script' ? 'BENCH_INTERVIEW_CLIENT=script' : ''].filter(Boolean).map((v) => ` (${v})`).join('')}: each candidate, ${THINK_MS ? `after ${THINK_MS} ms of think time on average (0.5–1.5×)` : 'without think time'}, posts an answer, ${CLIENT === 'script' ? 'with `Prefer: return=representation`, and reads the next turn in its answer (the page\'s script)' : 'follows the 303 and reads the next turn (JavaScript off)'}; ${QUESTIONS} questions, one follow-up each; the AI test server answers after ${AI_LATENCY_MS} ms.`,
    `Date: ${bench.startedAt.toISOString()}`,
    `Machine: ${machineDescription()}; load average (1, 5, 15 min) at the start ${load[0]}, at the end ${load[1]}`,
    '',
    'Platform share of a turn = (POST answer → next page read) − 300 ms for the answers that waited for a follow-up (AI), the whole latency for the others; "last answers" are the candidates\' last turns (among the others), which end the interview and start its evaluation beside the other candidates\' turns:',
    '',
    '| candidates | turns | platform p50 ms | platform p99 ms | AI turns p50 / p99 ms | other turns p50 / p99 ms | last answers p50 / p99 ms | turns/s | last answer → evaluation.completed p50 / p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => {
      const shares = r.turns.map(share);
      const aiShares = r.turns.filter((t) => t.ai).map(share);
      const others = r.turns.filter((t) => !t.ai).map(share);
      const lastShares = r.turns.filter((t) => t.last).map(share);
      return `| ${r.candidates} | ${r.turns.length} | ${ms(percentile(shares, 50))} | ${ms(percentile(shares, 99))} | ${ms(percentile(aiShares, 50))} / ${ms(percentile(aiShares, 99))} | ${ms(percentile(others, 50))} / ${ms(percentile(others, 99))} | ${ms(percentile(lastShares, 50))} / ${ms(percentile(lastShares, 99))} | ${(r.turns.length / (r.wallMs / 1000)).toFixed(1)} | ${ms(percentile(r.toEvaluation, 50))} / ${ms(percentile(r.toEvaluation, 99))}${r.evaluationsMissing ? ` (${r.evaluationsMissing} not completed)` : ''} |`;
    }),
  ];
  if (results.some((r) => r.cpu)) {
    const cores = cpus().length;
    /** One table row: each process's CPU ms divided by `count`, the platform's sum, and `last`. */
    const cpuRow = (candidates: number, usage: CpuUsage | null, count: number, last: (usage: CpuUsage) => string) => {
      if (!usage) return `| ${candidates} | – |`;
      const per = (v: number) => (v / Math.max(1, count)).toFixed(1);
      const platformMs = platform.reduce((a, n) => a + (usage.bySource.get(n) ?? 0), 0);
      return `| ${candidates} | ${names.map((n) => per(usage.bySource.get(n) ?? 0)).join(' | ')} | ${per(platformMs)} | ${last(usage)} |`;
    };
    const others = (usage: CpuUsage) => {
      const counted = [...usage.bySource.values()].reduce((a, b) => a + b, 0);
      return `${Math.round((Math.max(0, usage.machineBusy - counted) / (usage.wall * cores)) * 100)} %`;
    };
    lines.push(
      '',
      `CPU ms per turn in the walk's steady state: from the moment every candidate has answered once to the moment the first one sends its last answer (no start and no evaluation in it; the stack's background is), divided by the turns that ended in it; "platform" sums every process of the stack; "bench" is this process with the AI test server; "other processes" is the share of the machine's ${cores} CPUs used by processes not counted here:`,
      '',
      `| candidates | ${names.join(' | ')} | platform | other processes | turns in the window | their platform p50 / p99 ms | window s |`,
      `|---:|${names.map(() => '---:|').join('')}---:|---:|---:|---:|---:|`,
      ...results.map((r) => {
        const inWindow = r.steady?.turns ?? [];
        const shares = inWindow.map(share);
        return cpuRow(r.candidates, r.steady?.cpu ?? null, inWindow.length, (u) => `${others(u)} | ${inWindow.length} | ${ms(percentile(shares, 50))} / ${ms(percentile(shares, 99))} | ${(u.wall / 1000).toFixed(1)}`);
      }),
      '',
      'CPU ms per turn over the whole walk (first start → last answer: every start, and the evaluations that finished during it):',
      '',
      `| candidates | ${names.join(' | ')} | platform | other processes |`,
      `|---:|${names.map(() => '---:|').join('')}---:|---:|`,
      ...results.map((r) => cpuRow(r.candidates, r.cpu, r.turns.length, others)),
      '',
      'CPU ms per candidate after the walk, until every evaluation completed (the evaluations that had not finished during the walk, and this process polling `GET /evaluation` every 0.5 s):',
      '',
      `| candidates | ${names.join(' | ')} | platform | window s |`,
      `|---:|${names.map(() => '---:|').join('')}---:|---:|`,
      ...results.map((r) => cpuRow(r.candidates, r.evaluationCpu, r.candidates, (u) => (u.wall / 1000).toFixed(1))),
    );
  }
  lines.push(...loadNote(busy));
  const failures = results.flatMap((r) => (r.evaluationsMissing ? [`${r.evaluationsMissing} of ${r.candidates} evaluations did not complete`] : []));
  return { report: lines.join('\n'), failures };
});
