import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors.js';

/**
 * Which addresses a webhook may reach (SSRF), as an allow-list over the IANA special-purpose
 * registries, which ipaddr.js keeps (its `range()` names every special block: private, loopback,
 * link-local and cloud metadata, CGNAT, benchmarking, the TEST-NETs and 2001:db8::/32, multicast,
 * 240/4, Teredo, 6to4, ORCHID, discard…): only `unicast` passes, and for IPv6 only inside 2000::/3,
 * the global unicast block. IPv4 written inside IPv6 — mapped (::ffff:a.b.c.d), translated
 * (::ffff:0:a.b.c.d) or NAT64 (64:ff9b::/96, as DNS64 hands out on IPv6-only networks) — is
 * judged as the IPv4 address it carries. Teredo and 6to4 carry an address too, but are refused
 * whole: relays make where they lead unknowable.
 */
function isPublicIpv4(ip: ipaddr.IPv4): boolean {
  return ip.range() === 'unicast';
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function isPublic(ip: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (ip.kind() === 'ipv4') return isPublicIpv4(ip as ipaddr.IPv4);
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return isPublicIpv4(embedded);
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** The IPv4 address an IPv4-mapped, -translated or NAT64 (RFC 6052 well-known prefix) address carries. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = ip.range();
  const p = ip.parts;
  const lastTwo = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return lastTwo();
  if (range === 'rfc6052' && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return lastTwo();
  return null;
}

function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // ::ffff:127.0.0.1 becomes 127.0.0.1
  return ip.range() === 'loopback';
}

export function isForbiddenAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return true;
  if (allowLoopback && isLoopback(address)) return false;
  return !isPublic(ipaddr.parse(address));
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
  // The host as a message shows it: a 2 000-character host would push the reason out of the
  // error's detail (cut at 1 000 characters).
  const shown = host.length > 100 ? `${host.slice(0, 100)}…` : host;
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw refuse(`the host ${shown} does not resolve`);
  }
  if (addresses.length === 0) throw refuse(`the host ${shown} does not resolve`);
  const forbidden = addresses.find((a) => isForbiddenAddress(a.address, allowLoopback));
  // Which address a name resolved to is not said: the platform's DNS would otherwise answer an
  // API client's questions about internal hosts (their private addresses).
  if (forbidden) throw refuse(`the URL resolves to a private, loopback or link-local address, which webhooks may not reach`);
  const chosen = addresses[0]!;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback && isLoopback(chosen.address))) throw refuse('the URL must use https');
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
