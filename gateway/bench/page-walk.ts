import type { Result } from 'autocannon';
import { step } from '@hireloop/devstack/log';
import {
  measureLoad, measureLoadWithCpu, nextLink, otherProcessesShare, verifyTarget, type CpuSource, type CpuUsage, type LoadRow, type LoadTarget,
} from './bench-kit.js';

/**
 * What the list benchmarks share (interviews.bench.ts, sync.bench.ts): reach page 100 of a list
 * over HTTP by following `Link: rel="next"` like a client, then measure page 1 against page 100
 * with the same load, and print the rows the same way.
 */
export const CONNECTIONS = 10;
export const WARMUP_SECONDS = 2;
/** Load on both pages before a data set's first measurement (see measurePages). */
export const PRIME_SECONDS = 6;
export const DURATION_SECONDS = 8;
export const PAGE_SIZE = 25;
export const DEEP_PAGE = 100;
export const TIMING = { connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, durationSeconds: DURATION_SECONDS };

export type Row = LoadRow & { cpu: CpuUsage | null };

export interface Walk<Item> {
  /** Page DEEP_PAGE's URL, on `gatewayUrl`. */
  deepUrl: string;
  /** The last item of the page before it: the position page DEEP_PAGE starts after. */
  last: Item;
  /** Wall time of the walk over the pages before DEEP_PAGE, one request at a time. */
  walkMs: number;
}

/**
 * Pages 1 to DEEP_PAGE − 1 from `firstUrl`, one after another: each must answer 200 with PAGE_SIZE
 * items and a next link, and `checkPage` (given the previous page's last item) may refuse it.
 */
export async function walkToDeepPage<Item>(
  gatewayUrl: string,
  firstUrl: string,
  headers: Record<string, string>,
  checkPage: (items: Item[], previousLast: Item | undefined) => boolean = () => true,
): Promise<Walk<Item>> {
  let url = firstUrl;
  let last: Item | undefined;
  const started = performance.now();
  for (let page = 1; page < DEEP_PAGE; page++) {
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data?: Item[] };
    if (res.status !== 200 || body.data?.length !== PAGE_SIZE) throw new Error(`page ${page} answered ${res.status} with ${body.data?.length} items`);
    if (!checkPage(body.data, last)) throw new Error(`page ${page} is out of the list's order`);
    last = body.data.at(-1)!;
    const next = nextLink(res.headers.get('link'));
    if (!next) throw new Error(`page ${page} has no Link rel="next"`);
    // The link is on the public base URL (localhost); keep its path and query, on 127.0.0.1.
    const parsed = new URL(next);
    url = `${gatewayUrl}${parsed.pathname}${parsed.search}`;
  }
  return { deepUrl: url, last: last!, walkMs: performance.now() - started };
}

/**
 * Both pages are checked once, primed, then measured one after the other (`what` names the list in
 * the progress lines). The first run after a pause (start-up, seeding) costs every Node process up
 * to twice the CPU per request for ~15 s, a short warm-up does not cover it; so both pages get load first.
 */
export async function measurePages(what: string, targets: Array<{ target: LoadTarget; check: (body: unknown) => boolean }>, cpuSources: CpuSource[]): Promise<Row[]> {
  for (const { target, check } of targets) await verifyTarget(target, check);
  step(`Priming: ${PRIME_SECONDS} s of load on each page`);
  for (const { target } of targets) await measureLoad(target, { ...TIMING, warmupSeconds: 0, durationSeconds: PRIME_SECONDS });
  const rows: Row[] = [];
  for (const { target } of targets) {
    step(`Measuring ${what}, ${target.name.replace(' | ', ', page ')}: ${WARMUP_SECONDS} s warm-up, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
    rows.push(await measureLoadWithCpu(target, TIMING, cpuSources));
  }
  return rows;
}

/** "CPU ms/request" of a row: every counted process's CPU time over the requests served. */
export const cpuPerRequest = (cpu: CpuUsage | null, result: Result) =>
  cpu ? ([...cpu.bySource.values()].reduce((a, b) => a + b, 0) / Math.max(1, result.requests.total)).toFixed(2) : '–';

/** "other load" of a row. */
export const otherLoad = (cpu: CpuUsage | null) => (cpu ? `${Math.round(otherProcessesShare(cpu) * 100)} %` : '–');

/** The page table (rows named `<dataset> | <page>`). */
export function pageTable(rows: Row[]): string[] {
  return [
    '| dataset | page | req/s | p50 ms | p99 ms | CPU ms/request | other load |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ target, result, cpu }) => `| ${target} | ${Math.round(result.requests.mean)} | ${result.latency.p50} | ${result.latency.p99} | ${cpuPerRequest(cpu, result)} | ${otherLoad(cpu)} |`),
  ];
}

export const CPU_COLUMNS_NOTE = [
  '"CPU ms/request": CPU time of every process of the stack and of the bench (autocannon) per request, during the measured seconds.',
  '"other load": the share of the machine\'s CPUs used meanwhile by processes outside the stack and the bench.',
];
