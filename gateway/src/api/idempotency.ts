import type { NextFunction, Request, Response } from 'express';
import { AppError, SecretBox, sql, type Logger } from '@hireloop/platform';
import { ID_PREFIXES, IDEMPOTENCY_KEY_MAX } from '@hireloop/contracts';
import type { GatewayDb } from '../db.js';
import { bodyFingerprint } from './body-fingerprint.js';
import { erasedAmong, VOIDED_REPLY } from './erasure-replies.js';
import { locals } from '../request-context.js';
import { sendError } from './errors.js';
import { sendRestResponse, type RestResponder, type RestResponse } from './rest-response.js';
import { reachesInput, routeOf } from '../rest/dispatch.js';

/** A claim not completed within this time is taken to be from a crashed request and may be retaken. */
const LEASE_SECONDS = 60;
const REPLAYED_HEADERS = ['content-type', 'location'];

/**
 * Idempotency-Key for every POST to a route (PRODUCT.md §6), in one place, around the route's
 * response (`respond`, the dispatcher, produces it as a value; this is where it is both stored and
 * sent). The first request claims (API key, method, the route's spelling of the path,
 * Idempotency-Key) with an insert that only one concurrent
 * duplicate can win; its response is stored before it is sent and replayed for 24 h. Same key with
 * another body: 422; while the first is still running: 409. A 5xx is not stored, so a retry runs
 * again. Stored bodies are sealed (AES-256-GCM, STORED_RESPONSE_KEYS): a 201 of POST /webhooks
 * carries the signing secret, which must never sit in clear in Postgres (PRODUCT.md §11).
 */
export function idempotency(db: GatewayDb, box: SecretBox, logger: Logger, respond: RestResponder) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const idemKey = req.headers['idempotency-key'];
    const route = routeOf(req);
    // A path no route takes (404, 405), or a key without its scope (403, its body unread), has no response worth keeping.
    if (req.method !== 'POST' || idemKey === undefined || route.kind !== 'route' || !reachesInput(req)) {
      return respond(req).then((response) => sendRestResponse(res, response), next);
    }
    // Node joins repeated headers with ", ": two keys would silently become a third one.
    if (req.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'idempotency-key').length > 1) {
      return sendError(req, res, new AppError('validation_failed', 'Send one Idempotency-Key header.', [{ path: 'Idempotency-Key', message: 'sent more than once' }]));
    }
    if (typeof idemKey !== 'string' || idemKey.length === 0 || idemKey.length > IDEMPOTENCY_KEY_MAX) {
      return sendError(req, res, new AppError('validation_failed', `Idempotency-Key must be 1–${IDEMPOTENCY_KEY_MAX} characters.`, [{ path: 'Idempotency-Key', message: 'invalid length' }]));
    }
    const caller = locals(req).caller!;
    // `/positions/` and `/POSITIONS` reach the route of `/positions`: one record for all of them.
    const id = { api_key_id: caller.key.id, method: req.method, path: route.path, idempotency_key: idemKey };
    const print = bodyFingerprint(req);
    try {
      // Forget records older than 24 h for this key before claiming.
      await db.deleteFrom('gateway.idempotency_keys').where((eb) => eb.and(id)).where('created_at', '<', sql<Date>`now() - interval '24 hours'`).execute();
      const claimed = await db
        .insertInto('gateway.idempotency_keys')
        .values({ ...id, fingerprint: print, state: 'in_flight', locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
        .onConflict((oc) => oc.doNothing())
        .returning('api_key_id')
        .executeTakeFirst();
      if (!claimed) {
        const existing = await db.selectFrom('gateway.idempotency_keys').selectAll().where((eb) => eb.and(id)).executeTakeFirst();
        if (!existing) return sendError(req, res, new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress; retry shortly.'));
        if (existing.fingerprint !== print) {
          return sendError(req, res, new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.'));
        }
        if (existing.state === 'voided') {
          return sendError(req, res, new AppError('not_found', 'The person this request created or named has been erased; its stored response is gone.'));
        }
        if (existing.state === 'completed') {
          const headers = { ...existing.response_headers, 'Idempotent-Replayed': 'true' };
          return sendRestResponse(res, { status: existing.response_status ?? 200, headers, body: openStoredBody(box, existing.response_body) });
        }
        const retaken = await db.updateTable('gateway.idempotency_keys').set({ locked_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
          .where((eb) => eb.and(id)).where('state', '=', 'in_flight').where('locked_until', '<', sql<Date>`now()`).returning('api_key_id').executeTakeFirst();
        if (!retaken) return sendError(req, res, new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress; retry shortly.'));
      }
    } catch (err) {
      return next(err);
    }

    const release = () => db.deleteFrom('gateway.idempotency_keys').where((eb) => eb.and(id)).execute();
    let response: RestResponse;
    try {
      response = await respond(req);
    } catch (err) {
      // No response to store: free the key so a retry runs again, as after a 5xx.
      await release().catch((e: unknown) => logger.error({ err: e, requestId: locals(req).requestId }, 'could not release idempotency key'));
      return next(err);
    }
    // Store the response before it leaves, so a replay right after it sees `completed`.
    const { status, body } = response;
    const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase())).map(([name, value]) => [name.toLowerCase(), value]));
    try {
      // A service's own idempotency_key_reused is not this body's answer to keep: the key still
      // belongs to the first body, which the service replays (service-idempotency.ts).
      if (status >= 500 || refusedAsReused(status, body)) await release();
      else {
        const subjects = subjectIdsOf(body);
        const completed = { state: 'completed', locked_until: null, response_status: status, response_body: body === '' ? '' : box.seal(body), response_headers: JSON.stringify(headers), subject_ids: subjects } as const;
        const store = async (trx: GatewayDb, erased: boolean) => {
          await trx.updateTable('gateway.idempotency_keys').set(erased ? { ...VOIDED_REPLY, subject_ids: subjects } : completed).where((eb) => eb.and(id)).execute();
        };
        // A reply that names a person is checked against the erasures that ran while it was made.
        if (subjects.length) await db.transaction().execute(async (trx) => store(trx, await erasedAmong(trx, caller.organization.id, subjects)));
        else await store(db, false);
      }
    } catch (err) {
      logger.error({ err, requestId: locals(req).requestId }, 'could not store idempotent response');
    }
    sendRestResponse(res, response);
  };
}

/** Whether a response is the owning service's 422 `idempotency_key_reused` (its record's fingerprint differs). */
function refusedAsReused(status: number, body: string): boolean {
  if (status !== 422) return false;
  try {
    return (JSON.parse(body) as { error?: { code?: unknown } }).error?.code === 'idempotency_key_reused';
  } catch {
    return false;
  }
}

/**
 * The ids of the people a response body names (a candidate, an interview, an enrollment): the
 * erasure of a candidate deletes the stored responses that name one of theirs (PRODUCT.md §7).
 */
export function subjectIdsOf(body: string): string[] {
  return [...new Set(Array.from(body.matchAll(PERSON_ID), (m) => m[1]!))];
}
const PERSON_ID = new RegExp(`"((?:${[ID_PREFIXES.candidate, ID_PREFIXES.interview, ID_PREFIXES.enrollment].join('|')})_[0-9A-Za-z]+)"`, 'g');

/**
 * Fills `subject_ids` of the records stored before it existed; run at every gateway start (cheap
 * once done). Records are replayed for 24 h, so this closes the gap on upgrade.
 */
export async function indexStoredSubjects(db: GatewayDb, box: SecretBox): Promise<number> {
  const rows = await db.selectFrom('gateway.idempotency_keys').select(['api_key_id', 'method', 'path', 'idempotency_key', 'response_body'])
    .where('state', '=', 'completed').where('subject_ids', 'is', null).execute();
  for (const { response_body: body, ...id } of rows) {
    await db.updateTable('gateway.idempotency_keys').set({ subject_ids: subjectIdsOf(openStoredBody(box, body)) }).where((eb) => eb.and(id)).where('subject_ids', 'is', null).execute();
  }
  return rows.length;
}

/** A stored body: sealed, or (written before sealing, until sealStoredResponses ran) in clear. */
function openStoredBody(box: SecretBox, stored: string | null): string {
  if (!stored) return '';
  return SecretBox.isSealed(stored) ? box.open(stored) : stored;
}

/**
 * Seals the bodies stored in clear before sealing existed; run at every gateway start (cheap once
 * done: it finds nothing). Rows are replayable for 24 h, so this closes the gap on upgrade.
 */
export async function sealStoredResponses(db: GatewayDb, box: SecretBox): Promise<number> {
  const rows = await db.selectFrom('gateway.idempotency_keys').select(['api_key_id', 'method', 'path', 'idempotency_key', 'response_body'])
    .where('response_body', '<>', '').where('response_body', 'not like', 'v_:%').execute();
  for (const { response_body: body, ...id } of rows) {
    await db.updateTable('gateway.idempotency_keys').set({ response_body: box.seal(body!) }).where((eb) => eb.and(id)).where('response_body', '=', body).execute();
  }
  return rows.length;
}
