/**
 * The client address the local stack believes (supabase/local/src/http.ts `clientIp`, security
 * issue 13): the socket's peer, X-Forwarded-For only from a configured trusted proxy, read from
 * the right. No stack needed: the function sees only the socket address and the headers.
 */
import type { IncomingMessage } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientIp, forwardedHeaders } from '../../supabase/local/src/http.ts';
import { ConfigError, loadConfig } from '../../supabase/local/src/config.ts';

const request = (remoteAddress: string | undefined, headers: Record<string, string | string[]> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('client address', () => {
  it('is the socket peer when no proxy is trusted, whatever the headers say', () => {
    expect(clientIp(request('192.0.2.10', { 'x-forwarded-for': '6.6.6.6' }))).toBe('192.0.2.10');
    expect(clientIp(request('192.0.2.10', { 'x-forwarded-for': '6.6.6.6' }), [])).toBe('192.0.2.10');
    expect(clientIp(request('::ffff:192.0.2.10', { 'x-real-ip': '6.6.6.6' }))).toBe('192.0.2.10');
    expect(clientIp(request(undefined))).toBe('unknown');
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    expect(clientIp(request('192.0.2.10', { 'x-forwarded-for': '6.6.6.6' }), ['10.0.0.1'])).toBe('192.0.2.10');
  });

  it('behind a trusted proxy: the right-most hop that is not itself a trusted proxy', () => {
    const trusted = ['10.0.0.0/8', '2001:db8:ffff::/48'];
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '198.51.100.7' }), trusted)).toBe('198.51.100.7');
    // a client's own value on the left is ignored
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }), trusted)).toBe('198.51.100.7');
    // a chain of trusted proxies is walked through
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.1.2.3, 10.4.5.6' }), trusted)).toBe('198.51.100.7');
    // header lines are one list; IPv6, IPv4-mapped, ports and brackets are understood
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': ['6.6.6.6', '2001:db8::1'] }), trusted)).toBe('2001:db8::1');
    expect(clientIp(request('::ffff:10.0.0.1', { 'x-forwarded-for': '::ffff:198.51.100.8' }), trusted)).toBe('198.51.100.8');
    expect(clientIp(request('2001:db8:ffff::1', { 'x-forwarded-for': '198.51.100.9:5123' }), trusted)).toBe('198.51.100.9');
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '[2001:db8::2]:443' }), trusted)).toBe('2001:db8::2');
    // only trusted hops: the left-most of them; no header: the proxy itself
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '10.9.9.9, 10.0.0.2' }), trusted)).toBe('10.9.9.9');
    expect(clientIp(request('10.0.0.1'), trusted)).toBe('10.0.0.1');
    // a hop that is not an address ends the walk at the last trusted one
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': '198.51.100.7, unknown, 10.0.0.2' }), trusted)).toBe('10.0.0.2');
    expect(clientIp(request('10.0.0.1', { 'x-forwarded-for': 'garbage' }), trusted)).toBe('10.0.0.1');
  });

  it('is what the database and edge functions see in X-Forwarded-For and X-Real-IP', () => {
    const headers = forwardedHeaders(
      request('192.0.2.10', { 'x-forwarded-for': '6.6.6.6', 'x-real-ip': '6.6.6.7', prefer: 'tx=rollback' }),
    );
    expect(headers).toEqual({ 'x-forwarded-for': '192.0.2.10', 'x-real-ip': '192.0.2.10', prefer: 'tx=rollback' });
    expect(forwardedHeaders(request('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }), ['10.0.0.1'])['x-forwarded-for']).toBe(
      '198.51.100.7',
    );
  });

  it('config.toml [api] trusted_proxies: none by default, addresses and CIDR blocks, a bad entry refused', () => {
    const project = (toml: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'trusted-proxies-'));
      writeFileSync(join(dir, 'config.toml'), toml);
      return dir;
    };
    expect(loadConfig(project('')).api.trustedProxies).toEqual([]);
    expect(loadConfig(project('[api]\ntrusted_proxies = ["10.0.0.1", "172.16.0.0/12", "::1"]\n')).api.trustedProxies).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      '::1',
    ]);
    expect(() => loadConfig(project('[api]\ntrusted_proxies = ["10.0.0.0/33"]\n'))).toThrow(ConfigError);
    expect(() => loadConfig(project('[api]\ntrusted_proxies = ["proxy.local"]\n'))).toThrow(ConfigError);
  });
});
