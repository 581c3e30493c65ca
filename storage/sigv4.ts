import { createHmac } from 'node:crypto';
import { sha256Hex } from './sha256';

/**
 * AWS Signature Version 4 for S3 requests (header-based, signed payload hash), per
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html.
 */

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface RequestToSign {
  method: string;
  /** The URI path as sent: every key segment already percent-encoded (S3 does not encode it twice). */
  path: string;
  /** Raw (unencoded) query parameters. */
  query: Record<string, string>;
  /** Headers to send and sign, `host` included; names in any case. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (sent as x-amz-content-sha256). */
  payloadHash: string;
}

export const EMPTY_PAYLOAD_HASH = sha256Hex('');

/** RFC 3986 percent-encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The query string as sent and as signed: encoded pairs sorted by name. */
export function canonicalQuery(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** `20130524T000000Z`. */
export function amzDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Signs one request: returns the headers to send (the given ones plus x-amz-date,
 * x-amz-content-sha256 and authorization). The signing key, which only changes with the
 * day, is cached.
 */
export function createSigner(credentials: SigningCredentials, region: string, service = 's3') {
  let cachedKey: { day: string; key: Buffer } | undefined;
  const signingKey = (day: string): Buffer => {
    if (cachedKey?.day !== day) {
      const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
      cachedKey = { day, key: hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), service), 'aws4_request') };
    }
    return cachedKey.key;
  };

  return function sign(request: RequestToSign, at: Date): Record<string, string> {
    const date = amzDate(at);
    const day = date.slice(0, 8);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value.trim().replace(/\s+/g, ' ');
    headers['x-amz-date'] = date;
    headers['x-amz-content-sha256'] = request.payloadHash;
    const names = Object.keys(headers).sort();
    const signedHeaders = names.join(';');
    const canonicalRequest = [request.method, request.path, canonicalQuery(request.query), ...names.map((n) => `${n}:${headers[n]}`), '', signedHeaders, request.payloadHash].join(
      '\n',
    );
    const scope = `${day}/${region}/${service}/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
    const signature = createHmac('sha256', signingKey(day)).update(stringToSign).digest('hex');
    headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
    return headers;
  };
}
