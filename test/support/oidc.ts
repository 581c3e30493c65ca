import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { generatePki } from './tls';

export interface TestIssuer {
  issuer: string;
  /** https, served with a certificate of a private CA (caFile). */
  jwksUrl: string;
  caFile: string;
  /** The console settings' environment for this issuer and `audience`. */
  env(audience: string): Record<string, string>;
  /** A JWT signed by the issuer's key (or `key`), for `audience`, expiring in `expires` unless `expires: null`. */
  sign(claims: Record<string, unknown>, opts?: { audience?: string | null; key?: CryptoKey; issuer?: string; expires?: string | number | null }): Promise<string>;
  close(): Promise<void>;
}

/** A local OIDC issuer: a generated key pair whose public half is served as a JWKS over https. */
export async function startTestIssuer(defaultAudience: string): Promise<TestIssuer> {
  const issuer = 'https://login.example.test';
  const pair = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const pki = generatePki();
  const server: Server = createServer({ cert: readFileSync(pki.serverCert), key: readFileSync(pki.serverKey) }, (req, res) => {
    res.writeHead(req.url === '/jwks.json' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(req.url === '/jwks.json' ? JSON.stringify({ keys: [publicJwk] }) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `https://localhost:${(server.address() as AddressInfo).port}/jwks.json`;
  return {
    issuer,
    jwksUrl,
    caFile: pki.caCert,
    env: (audience) => ({
      EVOLUTION_CONSOLE_OIDC_ISSUER: issuer,
      EVOLUTION_CONSOLE_OIDC_JWKS_URL: jwksUrl,
      EVOLUTION_CONSOLE_OIDC_AUDIENCE: audience,
      EVOLUTION_CONSOLE_OIDC_CA_FILE: pki.caCert,
    }),
    async sign(claims, opts = {}) {
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(opts.issuer ?? issuer)
        .setIssuedAt();
      const audience = opts.audience === undefined ? defaultAudience : opts.audience;
      if (audience !== null) jwt = jwt.setAudience(audience);
      const expires = opts.expires === undefined ? '5m' : opts.expires;
      if (expires !== null) jwt = jwt.setExpirationTime(expires);
      return jwt.sign(opts.key ?? pair.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
