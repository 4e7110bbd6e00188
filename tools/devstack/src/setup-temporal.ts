import { findOrInstallTemporalCli } from './temporal-cli.js';
import { step, warn } from './log.js';

// `npm run setup:temporal`: make sure the Temporal CLI is available (PATH or .tools/), installing it if needed.
try {
  const cli = await findOrInstallTemporalCli(process.env['TEMPORAL_CLI']);
  step(`Temporal CLI: ${cli}`);
} catch (err) {
  warn((err as Error).message);
  process.exit(1);
}
