import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/**
 * An activity scheduled with a heartbeat timeout (the AI calls: activity-options.ts `AI_CALL`)
 * heartbeats for as long as it runs, whatever it waits on. The heartbeat says only that its worker
 * is alive: a worker killed mid-call stops heartbeating, and Temporal retries the activity on
 * another worker once the heartbeat timeout has passed, instead of after the whole start-to-close
 * timeout. The SDK throttles what reaches the server (to 80 % of the timeout).
 */
export const heartbeatActivityInterceptors: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute: async (input, next) => {
      const timeoutMs = ctx.info.heartbeatTimeoutMs;
      if (!timeoutMs || ctx.info.isLocal) return next(input);
      ctx.heartbeat();
      const timer = setInterval(() => ctx.heartbeat(), Math.max(100, Math.floor(timeoutMs / 4)));
      try {
        return await next(input);
      } finally {
        clearInterval(timer);
      }
    },
  },
});
