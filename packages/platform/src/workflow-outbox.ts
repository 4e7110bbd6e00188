import { sql, type Kysely, type Transaction } from 'kysely';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { Logger } from './logger.js';
import { claimWithLease, releaseLease, type LeaseTable } from './lease.js';
import { RelayLoop, type RelayTiming } from './relay-loop.js';
import { currentRequestId } from './request-id.js';

/**
 * Workflow starts that must follow a commit (ARCHITECTURE.md: no DB + Temporal dual writes in a
 * request). A service writes the start in the same transaction as its change; a relay starts
 * it after the commit, at least once. Workflow ids are derived from the entity, so a repeated
 * start is a no-op.
 */
export const WORKFLOW_OUTBOX_CHANNEL = 'hireloop_workflow_outbox';

const BATCH = 100;

/** Search attributes every workflow carries, registered on the dev server by the launcher. */
export const ORGANIZATION_ID = defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD);
export const KIND = defineSearchAttributeKey('Kind', SearchAttributeType.KEYWORD);
/** The memo field that holds the id of the request that started a workflow. */
export const REQUEST_ID_MEMO = 'requestId';

/**
 * SQL of a workflow-start outbox table in `schema`, as the services' migrations create it, for
 * tests that need one in a schema of their own. The migrations keep their own frozen copy.
 */
export function workflowOutboxTableSql(schema: string) {
  return sql`
    create table if not exists ${sql.id(schema, 'workflow_outbox')} (
      workflow_id text primary key,
      workflow_type text not null,
      args jsonb not null,
      organization_id text not null,
      kind text not null,
      task_queue text not null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      attempts integer not null default 0,
      last_error text
    );
    create index if not exists workflow_outbox_pending on ${sql.id(schema, 'workflow_outbox')} (task_queue, created_at) where started_at is null;
  `;
}

export interface WorkflowStart {
  workflowId: string;
  workflowType: string;
  args: unknown[];
  organizationId: string;
  /** Shown in the Temporal UI as the `Kind` search attribute. */
  kind: string;
  /**
   * The task queue of the workers that run it: its lane's queue (lanes.ts). Each relay starts only
   * the rows of its own deployment's queues.
   */
  taskQueue: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any> | Transaction<any>;

/**
 * Records a workflow start in the caller's transaction, with the id of the request being handled
 * (if any): the relay puts it in the workflow's memo, and the worker adds it to every log line of
 * that workflow and its activities (workflows/src/request-id-interceptors.ts).
 */
export async function enqueueWorkflowStart(trx: AnyDb, schema: string, start: WorkflowStart): Promise<void> {
  await sql`insert into ${sql.id(schema, 'workflow_outbox')} (workflow_id, workflow_type, args, organization_id, kind, task_queue, request_id)
            values (${start.workflowId}, ${start.workflowType}, ${JSON.stringify(start.args)}::jsonb, ${start.organizationId}, ${start.kind}, ${start.taskQueue}, ${currentRequestId() ?? null})
            on conflict (workflow_id) do nothing`.execute(trx);
  await sql`select pg_notify(${WORKFLOW_OUTBOX_CHANNEL}, ${schema})`.execute(trx);
}

interface Row {
  workflow_id: string;
  task_queue: string;
  workflow_type: string;
  args: unknown[];
  organization_id: string;
  kind: string;
  request_id: string | null;
}

/**
 * Starts pending workflows of one schema's outbox: woken by NOTIFY, and polling as a safety net.
 * Rows are claimed with a lease (several instances of a service share the work; no lock is held
 * while Temporal answers), each start has a deadline, and a failed start gives its row back.
 * The duplicate-start policies make a repeated start a no-op even after the first run completed
 * (a relay that crashed between start and marking the row), and such a start counts as done.
 */
export class WorkflowStartRelay {
  private readonly loop: RelayLoop;
  private readonly table: LeaseTable;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly schema: string,
    private readonly temporal: Client,
    /** The task queues of this process's deployment (every lane's: `Object.values(laneQueues(…))`). */
    private readonly taskQueues: string[],
    private readonly logger: Logger,
    timing: RelayTiming = {},
  ) {
    this.table = { schema, table: 'workflow_outbox', key: 'workflow_id' };
    this.loop = new RelayLoop({ name: 'workflow-relay', schema, channel: WORKFLOW_OUTBOX_CHANNEL, timing, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One batch: the starts go to Temporal concurrently (a fan-out to 100 webhooks must not wait for
   * 100 round trips in a row), then the rows that started are marked in one statement.
   */
  private async pass(): Promise<boolean> {
    const rows = await claimWithLease<Row>(this.db, this.table, {
      pending: sql`started_at is null and task_queue = any(${this.taskQueues})`,
      orderBy: sql`created_at, workflow_id`,
      limit: BATCH,
      leaseMs: this.loop.leaseMs,
    });
    const outcomes = await Promise.all(rows.map((row) => this.startOne(row)));
    const started = rows.filter((_, i) => outcomes[i] === null).map((r) => r.workflow_id);
    if (started.length) {
      await sql`update ${sql.id(this.schema, 'workflow_outbox')} set started_at = now(), lease_until = null, attempts = attempts + 1
        where workflow_id = any(${started})`.execute(this.db);
    }
    for (const [i, error] of outcomes.entries()) {
      if (error === null) continue;
      await sql`update ${sql.id(this.schema, 'workflow_outbox')} set attempts = attempts + 1, last_error = ${error.slice(0, 500)}
        where workflow_id = ${rows[i]!.workflow_id}`.execute(this.db);
    }
    await releaseLease(this.db, this.table, rows.filter((_, i) => outcomes[i] !== null).map((r) => r.workflow_id));
    // More only when a full batch went through; failures wait for the next poll.
    return rows.length === BATCH && started.length === rows.length;
  }

  /** Starts one workflow; null when it runs (now or already), else the error to record. */
  private async startOne(row: Row): Promise<string | null> {
    try {
      const deadline = Date.now() + this.loop.callTimeoutMs;
      await this.temporal.withDeadline(deadline, () => this.temporal.workflow.start(row.workflow_type, {
        workflowId: row.workflow_id,
        // Rows written before lanes carry the deployment's bare queue: the general lane runs them.
        taskQueue: row.task_queue,
        args: row.args,
        // A completed, failed or running workflow of this id is never started again.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        workflowIdConflictPolicy: 'FAIL',
        // Ids only: the request that caused this start, for the logs (never personal data).
        ...(row.request_id ? { memo: { [REQUEST_ID_MEMO]: row.request_id } } : {}),
        typedSearchAttributes: [
          { key: ORGANIZATION_ID, value: row.organization_id },
          { key: KIND, value: row.kind },
        ],
      }));
      return null;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return null;
      this.logger.warn({ err, workflowId: row.workflow_id }, 'could not start workflow; will retry');
      return String((err as Error).message);
    }
  }
}
