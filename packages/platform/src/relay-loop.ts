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
 * and every `pollMs` as a safety net (a notification is lost while no listener is connected).
 * Never two passes at once in a process; a kick during a pass runs one more pass after it.
 * `pass` returns true while there may be more work.
 */
export class RelayLoop {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private again = false;
  private stopped = false;
  private listener: pg.Client | null = null;

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
      this.listener = new pg.Client({ connectionString: databaseUrl, application_name: `${this.options.schema}-${this.options.name}` });
      this.listener.on('error', (err) => this.options.logger.warn({ err }, `${this.options.name} listener error; polling continues`));
      this.listener.on('notification', (msg) => {
        if (msg.payload === this.options.schema) this.kick();
      });
      await this.listener.connect();
      await this.listener.query(`listen ${this.options.channel}`);
    }
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.listener?.end().catch(() => undefined);
    while (this.running) await new Promise((r) => setTimeout(r, 20));
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
