import { sql, type Transaction } from '@hireloop/platform';
import type { GatewayDB, GatewayDb } from '../db.js';
import { routeOf } from '../rest/dispatch.js';
import type { RestResponder, RestResponse } from './rest-response.js';

/**
 * Voids the stored idempotent responses that name a candidate (the candidate's own 201, an
 * interview's, an enrollment's: each names the candidate's id, `subject_ids`): a retry of such a
 * POST is then 404 `not_found`, never the replay of the person's name, e-mail and invite URL.
 */
export function voidStoredReplies(trx: Transaction<GatewayDB>, candidateId: string) {
  return trx
    .updateTable('gateway.idempotency_keys')
    .set({ state: 'voided', response_status: null, response_headers: null, response_body: null, locked_until: null })
    .where(sql<boolean>`subject_ids @> array[${candidateId}]::text[]`)
    .where('state', '=', 'completed')
    .execute();
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
export function voidingRepliesOnErasure(db: GatewayDb, respond: RestResponder): RestResponder {
  return async (req) => {
    const match = routeOf(req);
    const candidateId = match.kind === 'route' && match.route.method === 'DELETE' && match.route.template === ERASE_ROUTE ? match.params['id'] : undefined;
    if (!candidateId) return respond(req);
    try {
      return await db.transaction().execute(async (trx) => {
        await voidStoredReplies(trx, candidateId);
        const response = await respond(req);
        if (response.status !== 202) throw new NotErased(response);
        return response;
      });
    } catch (err) {
      if (err instanceof NotErased) return err.response;
      throw err;
    }
  };
}
