import { Webhook as Signer } from 'standardwebhooks';
import { enqueueWorkflowStart, newId, sql, type EventInviteUrls, type Kysely, type SecretBox, type Transaction } from '@hireloop/platform';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { retryAfterSeconds, type HttpResult, type WebhookHttp } from './webhook-http.js';
import { retryStart, type DeliverySettings } from './delivery-start.js';
import { cancelEndpointDeliveries } from './cancel.js';

/** An endpoint failing every delivery for this long is disabled (PRODUCT.md §8). */
const DISABLE_AFTER_FAILING = '5 days';
/** Longest wait a receiver's Retry-After may ask for. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** A delivery with what its attempt needs: the event envelope and the endpoint (its secrets sealed). */
export interface DeliveryWork {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  generation: number;
  attempts: number;
  payload: { id: string; type: string; createdAt: string; data: unknown };
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
}

/** The columns of DeliveryWork, for a query over deliveries `d`, events `e` and webhooks `w`. */
export const WORK_COLUMNS = sql`d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.generation, d.attempts, e.payload,
  w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_until`;

export type Outcome =
  | { outcome: 'delivered' }
  | { outcome: 'failed'; retryAfterSeconds: number | null }
  /** 410 Gone, or the endpoint got disabled by this failure: no more attempts. */
  | { outcome: 'gone' };

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Signs and sends one delivery, per Standard Webhooks with the `standardwebhooks` library: the
 * `webhook-id` is the event id on every attempt; during a rotation's overlap the signature
 * header carries the new and the old signature (`v1,<new> v1,<old>`). A sealed invite URL of the
 * stored event is rendered into the body (event-invite-urls.ts in the platform).
 */
export class DeliverySender {
  private readonly signers = new Map<string, Signer>();

  constructor(private readonly box: SecretBox, private readonly http: WebhookHttp, private readonly inviteUrls: EventInviteUrls) {}

  private signer(sealed: string): Signer {
    let signer = this.signers.get(sealed);
    if (!signer) {
      if (this.signers.size > 5000) this.signers.clear();
      signer = new Signer(this.box.open(sealed));
      this.signers.set(sealed, signer);
    }
    return signer;
  }

  send(work: DeliveryWork): Promise<HttpResult> {
    const { id, type, createdAt, data } = work.payload;
    const body = JSON.stringify({ id, type, createdAt, data: this.inviteUrls.render(data) });
    const now = new Date();
    const sealed = [work.secret_sealed];
    if (work.previous_secret_sealed && work.previous_secret_until && work.previous_secret_until > now) sealed.push(work.previous_secret_sealed);
    const signature = sealed.map((s) => this.signer(s).sign(id, now, body)).join(' ');
    return this.http.post(work.webhook_id, work.url, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature }, body);
  }
}

/**
 * Records one attempt and what follows from it, in one transaction: the attempt log row; the
 * delivery's state; the endpoint's health (a 2xx clears its failure run; 410 disables it; so
 * does a failure run of 5 days, which also cancels its other deliveries).
 *
 * `then` says what a failure leads to: `handover` (the dispatcher's first attempt: the delivery
 * becomes a Temporal retry workflow) or a wait in seconds before the workflow's next attempt
 * (null: the schedule is exhausted, the delivery has failed).
 * Returns the outcome and the retry workflows to stop (those of a just-disabled endpoint).
 */
export async function recordAttempt(
  db: Kysely<IntegrationsDB>,
  settings: DeliverySettings,
  work: DeliveryWork,
  result: HttpResult,
  then: { handover: true } | { handover: false; waitSeconds: number | null },
): Promise<{ outcome: Outcome; stopWorkflows: string[] }> {
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('integrations.delivery_attempts').values(attemptRow(work, result)).execute();
    const last = { last_status_code: result.status, last_error: result.error?.slice(0, 1024) ?? null, last_latency_ms: result.latencyMs, last_attempt_at: new Date(), updated_at: new Date() };
    const delivery = trx
      .updateTable('integrations.deliveries')
      .where('id', '=', work.id)
      .where('generation', '=', work.generation)
      .where('status', 'in', ['pending', 'retrying']);
    const webhook = trx.updateTable('integrations.webhooks').where('id', '=', work.webhook_id);

    if (ok(result.status)) {
      await delivery.set({ ...last, status: 'delivered', attempts: sql`attempts + 1`, lease_until: null, next_attempt_at: null }).execute();
      await webhook.where('failing_since', 'is not', null).set({ failing_since: null }).execute();
      return { outcome: { outcome: 'delivered' }, stopWorkflows: [] };
    }

    let disabledReason: string | null = null;
    if (result.status === 410) {
      disabledReason = 'The endpoint answered 410 Gone.';
    } else {
      const row = await webhook
        .set({ failing_since: sql<Date>`coalesce(failing_since, now())` })
        .returning(sql<boolean>`failing_since < now() - ${DISABLE_AFTER_FAILING}::interval`.as('expired'))
        .executeTakeFirst();
      if (row?.expired) disabledReason = 'Every delivery failed for 5 days.';
    }
    if (disabledReason) {
      await delivery.set({ ...last, status: 'failed', attempts: sql`attempts + 1`, lease_until: null, next_attempt_at: null }).execute();
      await webhook.set({ status: 'disabled', disabled_reason: disabledReason, updated_at: new Date() }).execute();
      const stopWorkflows = await cancelEndpointDeliveries(trx, work.webhook_id);
      return { outcome: { outcome: 'gone' }, stopWorkflows };
    }

    const asked = result.status === 429 || result.status === 503 ? retryAfterSeconds(result.retryAfter) : null;
    if (then.handover) {
      const firstWait = Math.max(settings.retrySchedule[0] ?? 0, Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS));
      const moved = await delivery
        .where('status', '=', 'pending')
        .set({ ...last, status: 'retrying', attempts: sql`attempts + 1`, lease_until: null, next_attempt_at: sql<Date>`now() + make_interval(secs => ${firstWait})` })
        .returning('id')
        .executeTakeFirst();
      if (moved) await handOver(trx, settings, work, 1, asked);
    } else {
      const wait = then.waitSeconds === null ? null : Math.max(then.waitSeconds, Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS));
      await delivery
        .set({
          ...last,
          status: wait === null ? 'failed' : 'retrying',
          attempts: sql`attempts + 1`,
          lease_until: null,
          next_attempt_at: wait === null ? null : sql<Date>`now() + make_interval(secs => ${wait})`,
        })
        .execute();
    }
    return { outcome: { outcome: 'failed', retryAfterSeconds: asked }, stopWorkflows: [] };
  });
}

/** The attempt log row of one attempt. */
function attemptRow(work: DeliveryWork, result: HttpResult) {
  return {
    id: newId('dla'),
    delivery_id: work.id,
    organization_id: work.organization_id,
    webhook_id: work.webhook_id,
    event_id: work.event_id,
    event_type: work.event_type,
    attempt: work.attempts + 1,
    status_code: result.status,
    latency_ms: result.latencyMs,
    response_excerpt: result.excerpt?.slice(0, 1024) ?? null,
    error: result.error?.slice(0, 1024) ?? null,
  };
}

/** Whether an attempt's answer delivered it (2xx). */
export const delivered = (result: HttpResult) => ok(result.status);

/**
 * Records many successful (2xx) attempts in one transaction, with what `recordAttempt` writes for
 * each: the attempt log rows, each delivery marked delivered (if it is still this generation's
 * and not cancelled meanwhile), and the failure run of their endpoints cleared. Three statements
 * whatever the count: the dispatcher's group commit (dispatcher.ts).
 */
export async function recordDelivered(db: Kysely<IntegrationsDB>, attempts: { work: DeliveryWork; result: HttpResult }[]): Promise<void> {
  if (attempts.length === 0) return;
  const ids = attempts.map((a) => a.work.id);
  const generations = attempts.map((a) => a.work.generation);
  const codes = attempts.map((a) => a.result.status);
  const latencies = attempts.map((a) => a.result.latencyMs);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('integrations.delivery_attempts').values(attempts.map((a) => attemptRow(a.work, a.result))).execute();
    await sql`
      update integrations.deliveries d
      set status = 'delivered', attempts = d.attempts + 1, lease_until = null, next_attempt_at = null,
        last_status_code = v.status_code, last_error = null, last_latency_ms = v.latency_ms, last_attempt_at = now(), updated_at = now()
      from unnest(${ids}::text[], ${generations}::int[], ${codes}::int[], ${latencies}::int[]) as v(id, generation, status_code, latency_ms)
      where d.id = v.id and d.generation = v.generation and d.status in ('pending', 'retrying')`.execute(trx);
    await trx
      .updateTable('integrations.webhooks')
      .where('id', 'in', [...new Set(attempts.map((a) => a.work.webhook_id))])
      .where('failing_since', 'is not', null)
      .set({ failing_since: null })
      .execute();
  });
}

/** Queues the retry workflow of a delivery (started by the workflow-start relay after the commit). */
export function handOver(trx: Transaction<IntegrationsDB>, settings: DeliverySettings, work: Pick<DeliveryWork, 'id' | 'organization_id' | 'generation'>, attempted: number, asked: number | null) {
  return enqueueWorkflowStart(trx, SCHEMA, retryStart(settings, { organizationId: work.organization_id, deliveryId: work.id, generation: work.generation, attempted, retryAfterSeconds: asked }));
}
