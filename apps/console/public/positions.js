// The organization's positions, for the flow and job-description forms and for showing titles
// instead of ids. Loaded once per session, page by page (at most MAX_PAGES pages).
import { recruiting } from './api.js';
import { fillSelect } from './ui.js';

const MAX_PAGES = 10;
let loading = null;
const byId = new Map();

async function fetchAll() {
  const all = [];
  let cursor = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await recruiting.query('positions.list', cursor ? { limit: 100, cursor } : { limit: 100 });
    all.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  for (const p of all) byId.set(p.id, p);
  return all;
}

/** Every position (cached); a failed load is retried on the next call. */
export function loadPositions() {
  loading ??= fetchAll().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

export function positionTitle(id) {
  return byId.get(id)?.title ?? null;
}

/** After a job description is applied: keep the cached copy current. */
export function rememberPosition(position) {
  byId.set(position.id, position);
}

/** Fills a position <select>: "— none —" first, then every position by title. */
export async function fillPositionSelect(select, errorNode) {
  try {
    const positions = await loadPositions();
    fillSelect(
      select,
      positions.map((p) => ({ value: p.id, label: p.status === 'closed' ? `${p.title} (closed)` : p.title })),
      { empty: positions.length ? '— none —' : '— no positions yet —' },
    );
  } catch (err) {
    if (errorNode) errorNode.textContent = `Could not load the positions: ${err.message}`;
  }
}

export function resetPositions() {
  loading = null;
  byId.clear();
}
