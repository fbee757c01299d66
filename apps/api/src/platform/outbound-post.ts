// POSTs to addresses people outside Coffer chose (webhook endpoints), without letting them
// point Coffer at its own network (SSRF): every address is checked after DNS resolution,
// the connection goes to the very address that was checked, and every redirect is checked
// the same way before it is followed.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';

export type OutboundPolicy = {
  /** Plain http is allowed (COFFER_WEBHOOKS_ALLOW_PRIVATE); https only otherwise. */
  isHttpAllowed: boolean;
  /** Why an address may not be reached, or null when it may. */
  refusalOfAddress: (address: string) => string | null;
};

export type OutboundResult = {
  /** The last URL asked: the endpoint's, or where its redirects led. */
  url: string;
  /** The HTTP status of the last answer; null when none came. */
  statusCode: number | null;
  /** Why there was no answer to count (refused, timed out, connection failed). */
  error: string | null;
  /** At most `responseHeadBytesMax` bytes of the last answer's body, as text. */
  responseHead: string;
};

export const outboundTimeoutMs = 5_000;
export const responseHeadBytesMax = 1_024;
export const redirectsMax = 3;

/**
 * Why an address is not one of the public internet's, or null. Everything ipaddr.js does
 * not call plain `unicast` is refused: private, loopback, link-local, unique-local,
 * carrier-grade NAT, multicast, reserved, documentation, the unspecified address and
 * IPv6 forms that embed an IPv4 one. An IPv4-mapped IPv6 address is judged as its IPv4.
 */
export function refusalOfPrivateAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is not a public address (${range})`;
}

export const publicOnlyPolicy: OutboundPolicy = {
  isHttpAllowed: false,
  refusalOfAddress: refusalOfPrivateAddress,
};

export const anyAddressPolicy: OutboundPolicy = {
  isHttpAllowed: true,
  refusalOfAddress: () => null,
};

class Refused extends Error {}

type Target = { url: URL; address: string; family: 4 | 6 };

/** The URL's scheme and the one address to connect to, checked; throws Refused. */
async function checkedTarget(url: URL, policy: OutboundPolicy): Promise<Target> {
  if (url.protocol !== 'https:' && !(policy.isHttpAllowed && url.protocol === 'http:')) {
    throw new Refused(`${url.protocol} is not allowed: only https://`);
  }
  if (url.username !== '' || url.password !== '') throw new Refused('credentials in the URL');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await dnsLookup(host, { all: true, verbatim: true }).catch(() => {
        throw new Refused(`${host} could not be resolved`);
      });
  // Every address the name has must be public: a name with one public and one private
  // address would otherwise reach the private one whenever the resolver orders it first.
  for (const { address } of addresses) {
    const refusal = policy.refusalOfAddress(address);
    if (refusal) throw new Refused(`${host} resolves to ${refusal}`);
  }
  const first = addresses[0];
  if (!first) throw new Refused(`${host} has no address`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup that answers every name with the address already checked (no DNS rebinding). */
function pinnedLookup(target: Target): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Reads at most `bytesMax` bytes of a body and drops the rest without reading it. A body
 * cut short (the time ran out) gives what had come: the status has been answered already.
 */
async function headOf(body: AsyncIterable<Buffer>, bytesMax: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      // Leaving the loop destroys the stream: a 10 MB answer is never read whole.
      if (size >= bytesMax) break;
    }
  } catch {
    // What came before the failure is kept.
  }
  // PostgreSQL text takes no NUL; the head is for people to read.
  return Buffer.concat(chunks).subarray(0, bytesMax).toString('utf8').replaceAll('\u0000', '');
}

function describe(error: unknown): string {
  if (error instanceof Refused) return `refused: ${error.message}`;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${outboundTimeoutMs / 1000} s`;
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
  const message = error instanceof Error ? error.message : String(error);
  return (typeof code === 'string' ? `${code}: ${message}` : message).slice(0, 500);
}

/**
 * POSTs `body` to `url` and reports what came back. The whole attempt, redirects and the
 * answer's first bytes included, has `outboundTimeoutMs`. A redirect (at most
 * `redirectsMax`) is followed by POSTing the same body to its target, checked as the first
 * address was: a webhook only means something as a POST. Never throws.
 */
export async function postOutbound(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
): Promise<OutboundResult> {
  const signal = AbortSignal.timeout(outboundTimeoutMs);
  let current = url;
  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = await checkedTarget(new URL(current), policy);
      const agent = new Agent({
        connect: { lookup: pinnedLookup(target), timeout: outboundTimeoutMs },
        headersTimeout: outboundTimeoutMs,
        bodyTimeout: outboundTimeoutMs,
      });
      try {
        const response = await request(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
          dispatcher: agent,
          signal,
        });
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && location) {
          await response.body.dump({ limit: responseHeadBytesMax }).catch(() => {});
          if (redirects >= redirectsMax) {
            return {
              url: current,
              statusCode: response.statusCode,
              error: `more than ${redirectsMax} redirects`,
              responseHead: '',
            };
          }
          current = new URL(String(location), current).toString();
          continue;
        }
        const responseHead = await headOf(response.body, responseHeadBytesMax);
        return { url: current, statusCode: response.statusCode, error: null, responseHead };
      } finally {
        // Closes the connection whatever was left unread of the answer.
        await agent.destroy().catch(() => {});
      }
    }
  } catch (error) {
    return { url: current, statusCode: null, error: describe(error), responseHead: '' };
  }
}
