import { AppError, newId, olderThan, recordAudit, toPage, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type FlowInput, type HiringFlow } from '@hireloop/contracts';
import { SCHEMA, type Db, type RecruitingDB } from '../db.js';
import { getPositionRow } from '../positions/positions.queries.js';

async function withStages(db: Db, flows: { id: string; name: string; description: string | null; position_id: string | null; created_at: Date; updated_at: Date }[]): Promise<HiringFlow[]> {
  if (flows.length === 0) return [];
  const stages = await db.selectFrom('recruiting.flow_stages').selectAll().where('flow_id', 'in', flows.map((f) => f.id)).orderBy('position').execute();
  return flows.map((f) => ({
    id: f.id,
    name: f.name,
    description: f.description,
    positionId: f.position_id,
    stages: stages.filter((s) => s.flow_id === f.id).map((s) => ({ id: s.id, name: s.name, kind: s.kind, position: s.position })),
    createdAt: f.created_at.toISOString(),
    updatedAt: f.updated_at.toISOString(),
  }));
}

/**
 * A flow with its stages. `lock` holds the flow's row until the caller's transaction ends: an
 * update takes it `update`, an enrolment `share`, so an enrolment never reads stages an update is
 * replacing (it waits, then reads the new ones), and an update never misses an enrolment that
 * committed before it (its "no enrolments" check sees it: 409). Two updates wait for each other.
 */
export async function getFlow(db: Db, organizationId: string, id: string, lock?: 'share' | 'update'): Promise<HiringFlow> {
  const query = db.selectFrom('recruiting.hiring_flows').selectAll().where('organization_id', '=', organizationId).where('id', '=', id);
  const row = await (lock === 'update' ? query.forUpdate() : lock === 'share' ? query.forShare() : query).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No hiring flow ${id}.`);
  return (await withStages(db, [row]))[0]!;
}

export async function listFlows(db: Db, codec: CursorCodec, organizationId: string, query: { limit: number; cursor?: string }) {
  const context = { list: 'hiring_flows', organizationId, filters: {} };
  let q = db.selectFrom('recruiting.hiring_flows').selectAll().where('organization_id', '=', organizationId);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return { items: await withStages(db, page.items), nextCursor: page.nextCursor };
}

async function insertStages(trx: Db, flowId: string, stages: FlowInput['stages']) {
  await trx
    .insertInto('recruiting.flow_stages')
    .values(stages.map((s, i) => ({ id: newId(ID_PREFIXES.stage), flow_id: flowId, name: s.name, kind: s.kind, position: i + 1 })))
    .execute();
}

/** Flows are made in the console; an ai_interview stage needs the flow's position. */
function checkFlow(input: FlowInput) {
  if (input.stages.some((s) => s.kind === 'ai_interview') && !input.positionId) {
    throw new AppError('validation_failed', 'A flow with an ai_interview stage needs a positionId.', [{ path: 'positionId', message: 'required with an ai_interview stage' }]);
  }
}

export function createFlow(db: Kysely<RecruitingDB>, organizationId: string, input: FlowInput): Promise<HiringFlow> {
  checkFlow(input);
  return db.transaction().execute(async (trx) => {
    if (input.positionId) await getPositionRow(trx, organizationId, input.positionId);
    const now = new Date();
    const id = newId(ID_PREFIXES.flow, now.getTime());
    await trx
      .insertInto('recruiting.hiring_flows')
      .values({ id, organization_id: organizationId, name: input.name, description: input.description ?? null, position_id: input.positionId ?? null, created_at: now, updated_at: now })
      .execute();
    await insertStages(trx, id, input.stages);
    await recordAudit(trx, SCHEMA, organizationId, 'hiring_flow.created', { type: 'hiring_flow', id });
    return getFlow(trx, organizationId, id);
  });
}

/** Edits a flow; its stages can be replaced only while nobody is enrolled in it. */
export function updateFlow(db: Kysely<RecruitingDB>, organizationId: string, id: string, input: FlowInput): Promise<HiringFlow> {
  checkFlow(input);
  return db.transaction().execute(async (trx) => {
    const current = await getFlow(trx, organizationId, id, 'update');
    if (input.positionId) await getPositionRow(trx, organizationId, input.positionId);
    const sameStages = JSON.stringify(current.stages.map((s) => [s.name, s.kind])) === JSON.stringify(input.stages.map((s) => [s.name, s.kind]));
    if (!sameStages) {
      const enrolled = await trx.selectFrom('recruiting.enrollments').select('id').where('flow_id', '=', id).limit(1).executeTakeFirst();
      if (enrolled) throw new AppError('conflict', 'Candidates are enrolled in this flow; its stages can no longer be replaced.');
      await trx.deleteFrom('recruiting.flow_stages').where('flow_id', '=', id).execute();
      await insertStages(trx, id, input.stages);
    }
    await trx
      .updateTable('recruiting.hiring_flows')
      .set({ name: input.name, description: input.description ?? null, position_id: input.positionId ?? null, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, SCHEMA, organizationId, 'hiring_flow.updated', { type: 'hiring_flow', id });
    return getFlow(trx, organizationId, id);
  });
}
