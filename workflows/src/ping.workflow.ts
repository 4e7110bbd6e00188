/**
 * The smallest workflow: proves end to end that the worker polls its task queue and runs code
 * (used by the platform's smoke test and by operators checking a deployment).
 */
export async function ping(message: string): Promise<string> {
  return `pong: ${message}`;
}
