import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createPool } from './db.js';
import { AppError, CallTimeoutError } from './errors.js';
import { loggedError } from './logger.js';
import { createLogger } from './logger.js';

/** A logger whose lines are kept, parsed, in `lines`. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: createLogger('logger-test', 'info', stream), lines, raw };
}

/**
 * The developers' guide: no stack traces, SQL, library messages or secrets in logs. Errors are
 * logged as a typed summary (class, code, our own message), here with real Postgres errors
 * raised by the test stack's database.
 */
describe('errors in log lines', () => {
  const pool = createPool({ url: process.env['DATABASE_URL']!, applicationName: 'logger-test', max: 2 });
  after(() => pool.end());

  it('a pool error is logged by class and SQLSTATE, without its stack, SQL or message', async () => {
    const error = await pool.query(`select secret_column from no_such_table_for_logger_test where password = 'hunter2'`).then(
      () => assert.fail('the query succeeded'),
      (err: unknown) => err as Error,
    );
    const { logger, lines, raw } = capturingLogger();
    logger.warn({ err: error }, 'pass failed; will retry');
    logger.error(error, 'unhandled');
    assert.equal(lines.length, 2);
    for (const [i, line] of lines.entries()) {
      assert.deepEqual(line['err'], { type: 'DatabaseError', code: '42P01' });
      assert.doesNotMatch(raw[i]!, /stack|no_such_table|select|hunter2|does not exist|\bat .*:\d+/i, raw[i]);
    }
  });

  it('keeps our own message and follows causes; a failed connection gives its errno name only', async () => {
    const { logger, lines, raw } = capturingLogger();
    const unreachable = createPool({ url: 'postgres://nobody:pw@127.0.0.1:1/none', applicationName: 'logger-test', max: 1 });
    const refused = await unreachable.query('select 1').then(() => assert.fail('connected to port 1'), (err: unknown) => err as Error);
    await unreachable.end();
    logger.warn({ err: new Error('wrapped', { cause: refused }) }, 'service unreachable');
    logger.warn({ error: new AppError('not_found', 'No such candidate.') }, 'lookup failed');
    logger.warn({ err: 'a string' }, 'odd throw');
    assert.deepEqual(lines.map((l) => l['err'] ?? l['error']), [
      { type: 'Error', cause: { type: 'Error', code: 'ECONNREFUSED' } },
      { type: 'AppError', code: 'not_found', message: 'No such candidate.' },
      { type: 'string' },
    ]);
    assert.doesNotMatch(raw.join('\n'), /stack|wrapped|127\.0\.0\.1|connect ECONNREFUSED/);
  });
  it('a call past its deadline keeps our message (what was called, the deadline)', () => {
    assert.deepEqual(loggedError(new CallTimeoutError('publishing the outbox', 3000)), {
      type: 'CallTimeoutError', code: 'call_timeout', message: 'publishing the outbox timed out after 3000 ms',
    });
  });
});
