import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import { InputError } from '../core/errors';

export type TrustProxy = (address: string, hop: number) => boolean;

/** Trusts no proxy: the client is the socket's peer, whatever X-Forwarded-For says. */
export const TRUST_NO_PROXY: TrustProxy = () => false;

/**
 * The proxies whose X-Forwarded-For is believed (EVOLUTION_CONSOLE_TRUSTED_PROXIES):
 * addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal` (proxy-addr's names).
 */
export function trustedProxies(list: readonly string[], variable = 'EVOLUTION_CONSOLE_TRUSTED_PROXIES'): TrustProxy {
  if (list.length === 0) return TRUST_NO_PROXY;
  try {
    return proxyaddr.compile([...list]);
  } catch (e) {
    throw new InputError(`${variable}: ${(e as Error).message} (expected addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated)`);
  }
}

/**
 * The client's address: the socket's peer, or, when that peer is a trusted proxy, the
 * nearest address in X-Forwarded-For that is not one (proxy-addr, as Express does).
 */
export function clientAddress(req: IncomingMessage | undefined, trust: TrustProxy): string {
  if (!req?.socket) return 'unknown';
  try {
    return proxyaddr(req, trust) || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * What the credential limiter counts failures under: an IPv4 address, or the /64 an IPv6
 * address is in (one host usually holds a whole /64, so counting single IPv6 addresses would
 * give each attacker 2^64 fresh budgets). IPv4-mapped IPv6 counts as its IPv4 address.
 */
export function limiterKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
