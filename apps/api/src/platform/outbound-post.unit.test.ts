import { afterEach, describe, expect, it } from 'vitest';
import { answerWith, type Receiver, startReceiver } from '../../test/webhooks.ts';
import {
  type OutboundPolicy,
  postOutbound,
  publicOnlyPolicy,
  refusalOfPrivateAddress,
} from './outbound-post.ts';

const receivers: Receiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

/**
 * The public-only policy, except for the one test receiver's address, standing in for a
 * public server: what its redirects lead to is judged as in production.
 */
const receiverIsPublic: OutboundPolicy = {
  isHttpAllowed: true,
  refusalOfAddress: (address) =>
    address === '127.0.0.1' ? null : refusalOfPrivateAddress(address),
};

const redirectTo =
  (location: string): Parameters<typeof startReceiver>[0] =>
  (_request, _index, response) => {
    response.writeHead(307, { location }).end();
  };

describe('refusalOfPrivateAddress', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['172.16.0.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusalOfPrivateAddress(address)).toContain(range);
  });

  it.each(['93.184.215.14', '2606:4700::1111'])('lets %s through', (address) => {
    expect(refusalOfPrivateAddress(address)).toBeNull();
  });
});

describe('postOutbound', () => {
  it('follows a redirect to a public address, POSTing the same body', async () => {
    const target = await receiver(answerWith(200, 'done'));
    const redirecting = await receiver(redirectTo(target.url));
    const result = await postOutbound(redirecting.url, '{"a":1}', {}, receiverIsPublic);
    expect(result).toMatchObject({ statusCode: 200, error: null, responseHead: 'done' });
    expect(target.received[0]?.body).toBe('{"a":1}');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.7/internal',
    'http://[::1]:9/admin',
  ])('refuses a redirect to %s without connecting', async (location) => {
    const redirecting = await receiver(redirectTo(location));
    const result = await postOutbound(redirecting.url, '{}', {}, receiverIsPublic);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^refused: .* is not a public address/);
    expect(result.url).toBe(new URL(location).toString());
  });

  it('refuses plain http and loopback under the public-only policy', async () => {
    const local = await receiver(answerWith(200));
    expect((await postOutbound(local.url, '{}', {}, publicOnlyPolicy)).error).toBe(
      'refused: http: is not allowed: only https://',
    );
    const https = `https://127.0.0.1:${local.port}/`;
    expect((await postOutbound(https, '{}', {}, publicOnlyPolicy)).error).toMatch(/loopback/);
    expect(local.received).toEqual([]);
  });

  it('stops after three redirects', async () => {
    const looping = await receiver((_request, _index, response) => {
      response.writeHead(308, { location: '/again' }).end();
    });
    const result = await postOutbound(looping.url, '{}', {}, receiverIsPublic);
    expect(result.error).toBe('more than 3 redirects');
    expect(looping.received).toHaveLength(4);
  });
});
