import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { findOrInstallTemporalCli } from './temporal-cli.js';
import { startTemporalDevServer, TemporalPortTaken } from './temporal-server.js';

describe('the Temporal dev server', () => {
  it('whose port another process holds ends the start with TemporalPortTaken (a test stack then picks other ports), its pid file gone', async () => {
    const cli = await findOrInstallTemporalCli(undefined);
    const dataDir = mkdtempSync(join(tmpdir(), 'temporal-port-'));
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      await assert.rejects(
        startTemporalDevServer({ cli, dataDir, port: taken, uiPort: await freePort(), log: () => undefined, fast: true }),
        (err) => err instanceof TemporalPortTaken && err.message.includes(String(taken)),
      );
      assert.equal(existsSync(join(dataDir, 'temporal.pid')), false);
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
