import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/**
 * An activity scheduled with a heartbeat timeout (the AI calls: activity-options.ts `AI_CALL`)
 * heartbeats for as long as it runs, whatever it waits on, every quarter of the timeout. The
 * heartbeat says only that its worker is alive: a worker killed mid-call stops heartbeating, and
 * Temporal retries the activity on another worker once the heartbeat timeout has passed (counted
 * from the start until a first heartbeat), instead of after the whole start-to-close timeout. The
 * SDK throttles what reaches the server (to 80 % of the timeout).
 */
export const heartbeatActivityInterceptors: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute: async (input, next) => {
      const timeoutMs = ctx.info.heartbeatTimeoutMs;
      if (!timeoutMs || ctx.info.isLocal) return next(input);
      // None at the start: the server times the heartbeat from the activity's start, so a call
      // shorter than the interval (an evaluation's, about a second) sends none, and the server
      // writes nothing for it.
      const timer = setInterval(() => ctx.heartbeat(), Math.max(100, Math.floor(timeoutMs / 4)));
      try {
        return await next(input);
      } finally {
        clearInterval(timer);
      }
    },
  },
});
