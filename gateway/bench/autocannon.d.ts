// The part of autocannon's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    title?: string;
  }

  /** A histogram summary; latency in ms, requests and throughput per second. */
  interface Histogram {
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  interface Result {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    totalCompletedRequests: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Without a callback it returns a thenable run that resolves with the results. */
  function autocannon(options: Options): PromiseLike<Result>;
  export default autocannon;
  export type { Options, Result, Histogram };
}
