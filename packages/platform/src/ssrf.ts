import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from './errors.js';

/** Addresses no webhook may reach (SSRF): private, loopback, link-local (cloud metadata), reserved. */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) blocked.addSubnet(net, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

function family(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is. */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export function isForbiddenAddress(address: string, allowLoopback: boolean): boolean {
  const a = normalise(address);
  if (allowLoopback && loopback.check(a, family(a))) return false;
  return blocked.check(a, family(a));
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Checks a webhook URL and resolves it to one address that is allowed, which the caller then
 * connects to (pinning it, so DNS cannot be re-bound between check and request). https only;
 * http only for loopback when `allowLoopback` (the development flag) is on.
 */
export async function resolveWebhookTarget(rawUrl: string, allowLoopback: boolean): Promise<ResolvedTarget> {
  const refuse = (message: string) => new AppError('validation_failed', message, [{ path: 'url', message }]);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw refuse('not a valid URL');
  }
  if (url.username || url.password) throw refuse('credentials in the URL are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw refuse(`the host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw refuse(`the host ${host} does not resolve`);
  const forbidden = addresses.find((a) => isForbiddenAddress(a.address, allowLoopback));
  if (forbidden) throw refuse(`the URL resolves to a private, loopback or link-local address (${forbidden.address}), which webhooks may not reach`);
  const chosen = addresses[0]!;
  const isLoopback = loopback.check(normalise(chosen.address), family(normalise(chosen.address)));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && isLoopback)) throw refuse('the URL must use https');
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
