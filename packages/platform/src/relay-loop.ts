import pg from 'pg';
import type { Logger } from './logger.js';

/** How a relay paces itself; each a setting of the service that runs it. */
export interface RelayTiming {
  /** Safety-net poll period (a NOTIFY wakes it sooner). Default 1 s. */
  pollMs?: number;
  /** Deadline of each network call a pass makes (publish, workflow start). Default 10 s. */
  callTimeoutMs?: number;
}

/**
 * The engine of an outbox relay: runs `pass` when a NOTIFY arrives on `channel` for `schema`,
 * and every `pollMs` as a safety net (a notification is lost while no listener is connected: a
 * lost listener connection is reconnected with back-off, and a pass follows each reconnection).
 * Never two passes at once in a process; a kick during a pass runs one more pass after it.
 * `pass` returns true while there may be more work.
 */
export class RelayLoop {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;
  private listener: pg.Client | null = null;
  private databaseUrl: string | undefined;
  private relistenTimer: NodeJS.Timeout | null = null;
  private relistenDelayMs = 0;

  readonly pollMs: number;
  readonly callTimeoutMs: number;
  /** How long claimed rows stay with this relay: well past the call's deadline. */
  readonly leaseMs: number;

  constructor(
    private readonly options: { name: string; schema: string; channel: string; timing: RelayTiming; logger: Logger; pass: () => Promise<boolean> },
  ) {
    this.pollMs = options.timing.pollMs ?? 1000;
    this.callTimeoutMs = options.timing.callTimeoutMs ?? 10_000;
    this.leaseMs = 3 * this.callTimeoutMs;
  }

  async start(databaseUrl?: string): Promise<void> {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    if (databaseUrl) {
      this.databaseUrl = databaseUrl;
      await this.listen(true);
    }
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    await this.listener?.end().catch(() => undefined);
    while (this.running) await new Promise((r) => setTimeout(r, 20));
  }

  /** Connects the listener and LISTENs; a lost connection (Postgres restarted, backend terminated) is reconnected. */
  private async listen(initial = false): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: `${this.options.schema}-${this.options.name}` });
    this.listener = client;
    client.on('error', (err) => {
      this.options.logger.warn({ err }, `${this.options.name} listener lost; polling continues while it reconnects`);
      this.relisten(client);
    });
    client.on('end', () => this.relisten(client));
    client.on('notification', (msg) => {
      if (msg.payload === this.options.schema) this.kick();
    });
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
    } catch (err) {
      // At start the caller hears of it (as of any other unreachable dependency); later, retried.
      if (initial) {
        this.listener = null;
        void client.end().catch(() => undefined);
      } else this.relisten(client);
      throw err;
    }
    this.relistenDelayMs = 0;
  }

  /**
   * After `client` was lost: a new listener after a back-off (doubling from 100 ms to 30 s, with
   * jitter, so a restarted Postgres is not met by every relay at once), then one pass for what was
   * notified meanwhile. Once per lost client.
   */
  private relisten(client: pg.Client): void {
    if (this.stopped || this.listener !== client) return;
    this.listener = null;
    void client.end().catch(() => undefined);
    this.relistenDelayMs = Math.min(Math.max(this.relistenDelayMs * 2, 100), 30_000);
    const delay = this.relistenDelayMs / 2 + Math.random() * (this.relistenDelayMs / 2);
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = null;
      if (this.stopped) return;
      this.listen().then(
        () => this.kick(),
        (err: unknown) => this.options.logger.warn({ err }, `${this.options.name} listener could not reconnect; will retry`),
      );
    }, delay);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    const run = async () => {
      while (!this.stopped && (await this.options.pass()));
    };
    run()
      .catch((err: unknown) => this.options.logger.warn({ err }, `${this.options.name} pass failed; will retry`))
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }
}
