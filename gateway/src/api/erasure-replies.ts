import { sql, type Transaction } from '@hireloop/platform';
import type { GatewayDB, GatewayDb } from '../db.js';
import { routeOf } from '../rest/dispatch.js';
import { locals } from '../request-context.js';
import type { ServiceClients } from '../services.js';
import type { RestResponder, RestResponse } from './rest-response.js';

/**
 * Voids the stored idempotent responses that name one of a person's ids (`subject_ids`): the
 * candidate's own 201, an interview's or an enrollment's (each names the candidate's id), a
 * review's or a re-run's (they name the interview's only, and hold the answers' text). A retry
 * of such a POST is then 404 `not_found`, never the replay of the person's words or details.
 */
export function voidStoredReplies(trx: Transaction<GatewayDB>, ids: string[]) {
  return trx
    .updateTable('gateway.idempotency_keys')
    .set(VOIDED_REPLY)
    .where(sql<boolean>`subject_ids && ${ids}::text[]`)
    .where('state', '=', 'completed')
    .execute();
}

/** A stored reply once its person is erased: its key and fingerprint stay, its response is gone. */
export const VOIDED_REPLY = { state: 'voided', response_status: null, response_headers: null, response_body: null, locked_until: null } as const;

/**
 * One lock per organization orders an erasure's record of ids against the replies stored beside
 * it. Read committed alone would let both miss each other: the DELETE voids before the reply is
 * stored, and the store looks for erased ids before the DELETE's commit.
 */
const erasureLock = (organizationId: string) => sql<bigint>`hashtextextended(${`erasure:${organizationId}`}, 0)`;

/**
 * Records `ids` as erased and voids the replies that name them, under the organization's lock
 * taken alone: a reply stored before it is voided here, and one stored after it sees the ids.
 */
export async function recordErasure(db: GatewayDb, organizationId: string, ids: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${erasureLock(organizationId)})`.execute(trx);
    await trx.insertInto('gateway.erased_subjects').values(ids.map((id) => ({ id }))).onConflict((oc) => oc.column('id').doNothing()).execute();
    await voidStoredReplies(trx, ids);
  });
}

/**
 * Whether one of the people a reply names (`ids`) has been erased, under the organization's lock
 * taken shared: call it in the transaction that stores the reply, and store it voided if so.
 */
export async function erasedAmong(trx: Transaction<GatewayDB>, organizationId: string, ids: string[]): Promise<boolean> {
  await sql`select pg_advisory_xact_lock_shared(${erasureLock(organizationId)})`.execute(trx);
  return (await trx.selectFrom('gateway.erased_subjects').select('id').where('id', 'in', ids).limit(1).executeTakeFirst()) !== undefined;
}

/** How long the DELETE waits for recruiting to name the person's other ids before it answers anyway. */
const RELATED_IDS_MS = 2000;

/**
 * Voids the replies that name the erased candidate's interview and enrollment ids (as recruiting
 * keeps them for the erasure's steps), a page of ids at a time, each in its own transaction: the
 * 202 is decided, so a failure or a slow recruiting (past RELATED_IDS_MS) leaves the rest to the
 * erasure task's gateway step, moments later, and never turns the 202 into an error.
 */
async function voidRelatedReplies(db: GatewayDb, services: ServiceClients, organizationId: string, requestId: string, candidateId: string): Promise<void> {
  const candidates = services.recruitingAsSystemFor(organizationId, requestId).candidates;
  const until = Date.now() + RELATED_IDS_MS;
  let after: string | null = null;
  do {
    const left = until - Date.now();
    if (left <= 0) return;
    const page: { ids: string[]; next: string | null } | null = await Promise.race([
      candidates.erasedIds.query({ id: candidateId, after }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), left).unref()),
    ]);
    if (!page) return;
    if (page.ids.length) await recordErasure(db, organizationId, page.ids);
    after = page.next;
  } while (after);
}

const ERASE_ROUTE = '/candidates/{id}';

/** Carries a refused erasure's response out of the transaction, which it rolls back. */
class NotErased extends Error {
  constructor(readonly response: RestResponse) {
    super('not erased');
  }
}

/**
 * Erasure reaches stored replies at once (issue 18 item 9). Around `DELETE /candidates/{id}`: the
 * candidate's stored responses are voided in a gateway transaction that commits only when the
 * erasure was accepted (202), before the 202 is sent; a refused erasure (404, 403, 503) rolls it
 * back. The asynchronous erasure task deletes the records later, as before. Every other request
 * passes to `respond` unchanged.
 */
export function voidingRepliesOnErasure(db: GatewayDb, services: ServiceClients, respond: RestResponder): RestResponder {
  return async (req) => {
    const match = routeOf(req);
    const candidateId = match.kind === 'route' && match.route.method === 'DELETE' && match.route.template === ERASE_ROUTE ? match.params['id'] : undefined;
    const caller = locals(req).caller;
    if (!candidateId || !caller) return respond(req);
    try {
      const response = await db.transaction().execute(async (trx) => {
        await voidStoredReplies(trx, [candidateId]);
        const response = await respond(req);
        if (response.status !== 202) throw new NotErased(response);
        return response;
      });
      // Accepted: replies that name only one of the person's other ids (a review's, a re-run's)
      // go before the 202 is sent too, not only when the task's gateway step runs; and a reply
      // stored from now on that names one of these ids is stored voided.
      await recordErasure(db, caller.organization.id, [candidateId])
        .then(() => voidRelatedReplies(db, services, caller.organization.id, locals(req).requestId, candidateId))
        .catch(() => undefined);
      return response;
    } catch (err) {
      if (err instanceof NotErased) return err.response;
      throw err;
    }
  };
}
