import type { ConsoleStack } from './console-stack.js';

/**
 * Records in the demo organization so every view has something to show, and the ids that fill
 * the routes' examples (`webhooks/{webhook}` → `webhooks/wh_…`). A placeholder with no id here
 * leaves its route out of the screenshots, with a warning.
 */
export async function seedDemo(s: ConsoleStack): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const position = await s.api('POST', '/positions', { title: 'Backend Engineer', description: 'Builds the hiring platform.', interviewQuestions: ['Why us?', 'Tell us about a hard bug you fixed.'] });
  ids['position'] = String(position.data['id']);
  for (const [name, email] of [['Ada Lovelace', 'ada@example.com'], ['Grace Hopper', 'grace@example.com'], ['Katherine Johnson', 'katherine@example.com']] as const) {
    const interview = await s.api('POST', '/interviews', { positionId: ids['position'], candidate: { email, name } });
    ids['interview'] ??= String(interview.data['id']);
    ids['candidate'] ??= String((interview.data['candidate'] as { id: string }).id);
  }
  // Loopback URLs (the stack allows them in test mode): nothing listens, so the health shows retries.
  const webhook = await s.api('POST', '/webhooks', { url: 'http://127.0.0.1:9/hireloop/ats-sync', events: ['*'], description: 'ATS sync' });
  ids['webhook'] = String(webhook.data['id']);
  const flows = await s.api('GET', '/hiring-flows');
  const firstFlow = (flows.data as unknown as Array<{ id: string }> | undefined)?.[0];
  if (firstFlow) ids['flow'] = firstFlow.id;
  await s.recruiting.ats.setStageMappings.mutate({ source: 'greenhouse', stages: ['Phone screen', 'AI interview'] });
  await s.api('POST', '/webhooks', { url: 'http://127.0.0.1:9/hireloop/audit', events: ['candidate.created', 'interview.completed'] });
  return ids;
}
