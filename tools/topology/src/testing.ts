import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTopology, type Topology, type TopologyOptions } from './topology.js';

/**
 * A topology for one test file run by run-tests.ts: from its runtime tree, with its data and
 * every process's output (`processes.log`) in a folder of its own under the run's data folder.
 */
export async function startTestTopology(name: string, options: Omit<TopologyOptions, 'tree' | 'dataDir' | 'log'> = {}): Promise<Topology & { logFile: string }> {
  const tree = process.env['TOPOLOGY_TREE'];
  const runDir = process.env['TOPOLOGY_DATA_DIR'];
  if (!tree || !runDir) throw new Error('TOPOLOGY_TREE is not set: run this file through `npm run test:topology` (tools/topology/src/run-tests.ts).');
  const dataDir = join(runDir, name);
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'processes.log');
  const out = createWriteStream(logFile);
  const topology = await startTopology({ ...options, tree, dataDir, log: (p, line) => out.write(`${p.padEnd(14)}| ${line}\n`) });
  return {
    ...topology,
    logFile,
    stop: async () => {
      await topology.stop();
      out.end();
    },
  };
}
