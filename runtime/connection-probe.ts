import { connect as tlsConnect } from 'node:tls';
import type { TemporalConnectionSettings } from '../core';

/** The probe's answer when the server accepted the connection, TLS is off, and it said nothing: a hung or stopped server. */
export const NO_ANSWER = 'TEMPORAL_TLS_OFF_BUT_NO_ANSWER';

/**
 * Why a connection failed, found out with a plain TLS handshake using the same settings:
 * the gRPC client of `@temporalio/client` reports every failure as "Failed to connect
 * before the deadline", which tells an operator nothing.
 */
export async function probeTls(address: string, tls: TemporalConnectionSettings['tls'], timeoutMs = 5_000): Promise<string | undefined> {
  const m = /^(.*):(\d+)$/.exec(address);
  if (!m) return undefined;
  const [, host, port] = m;
  const settings = typeof tls === 'object' ? tls : {};
  return new Promise((resolve) => {
    let settled = false;
    const done = (hint: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(hint);
    };
    const socket = tlsConnect({
      host,
      port: Number(port),
      servername: settings.serverNameOverride ?? (/^[\d.]+$/.test(host) ? undefined : host),
      ALPNProtocols: ['h2'],
      // Without TLS configured, only "does the server speak TLS at all?" matters.
      rejectUnauthorized: !!tls,
      ...(settings.serverRootCACertificate ? { ca: Buffer.from(settings.serverRootCACertificate) } : {}),
      ...(settings.clientCertPair ? { cert: Buffer.from(settings.clientCertPair.crt), key: Buffer.from(settings.clientCertPair.key) } : {}),
    });
    const timer = setTimeout(() => done(tls ? undefined : NO_ANSWER), timeoutMs);
    socket.once('secureConnect', () => {
      if (!tls) return done('the server speaks TLS: set TEMPORAL_TLS=true (or TEMPORAL_API_KEY, which implies TLS)');
      // TLS 1.3 servers check the client certificate after the handshake: wait for their verdict.
      socket.write(Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'));
      setTimeout(() => done(undefined), 500);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const text = `${e.code ?? ''} ${e.message}`.toLowerCase();
      if (/econnrefused|enotfound|eai_again|ehostunreach|etimedout/.test(text))
        return done(`nothing answers at ${address}: check TEMPORAL_ADDRESS (or the address of the Temporal config profile) and that the server is running`);
      if (!tls) return done(undefined);
      if (/certificate.required|handshake.failure|bad.certificate|alert/.test(text))
        return done('the server asks for a client certificate (mutual TLS): set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH');
      if (/altname|hostname/.test(text)) return done("the server's certificate is for another name: set TEMPORAL_TLS_SERVER_NAME to the name it was issued for");
      if (/self.signed|unable_to_verify|unable to verify|unable_to_get_issuer|issuer|cert_untrusted/.test(text)) {
        return done(
          "the server's certificate is not trusted: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed it (and TEMPORAL_TLS_SERVER_NAME if it was issued for another name)",
        );
      }
      if (/wrong.version|packet_length_too_long|econnreset|unexpected eof|socket hang up/.test(text))
        return done('the server does not speak TLS there: unset TEMPORAL_TLS (or set it to false), or use its TLS port');
      done(undefined);
    });
  });
}
