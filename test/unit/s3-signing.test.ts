import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../storage/sha256';
import { amzDate, canonicalQuery, createSigner, EMPTY_PAYLOAD_HASH, uriEncode } from '../../storage/sigv4';

// The worked examples of https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
const credentials = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const at = new Date('2013-05-24T00:00:00Z');

describe('SigV4 for S3', () => {
  it("signs AWS's GET Object example to its published signature", () => {
    const headers = createSigner(credentials, 'us-east-1')(
      { method: 'GET', path: '/test.txt', query: {}, headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9' }, payloadHash: EMPTY_PAYLOAD_HASH },
      at,
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
    expect(headers['x-amz-content-sha256']).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it("signs AWS's GET Bucket (list objects) example, whose query is sorted and signed", () => {
    const headers = createSigner(credentials, 'us-east-1')(
      { method: 'GET', path: '/', query: { prefix: 'J', 'max-keys': '2' }, headers: { host: 'examplebucket.s3.amazonaws.com' }, payloadHash: EMPTY_PAYLOAD_HASH },
      at,
    );
    expect(headers.authorization).toMatch(/SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
  });

  it('a different body, method or day gives a different signature', () => {
    const sign = createSigner(credentials, 'us-east-1');
    const base = { method: 'PUT', path: '/b/k', query: {}, headers: { host: 'h' }, payloadHash: sha256Hex('a') };
    const signature = (h: Record<string, string>) => h.authorization!.split('Signature=')[1];
    const first = signature(sign(base, at));
    expect(signature(sign({ ...base, payloadHash: sha256Hex('b') }, at))).not.toBe(first);
    expect(signature(sign({ ...base, method: 'DELETE' }, at))).not.toBe(first);
    expect(signature(sign(base, new Date('2013-05-25T00:00:00Z')))).not.toBe(first);
    expect(signature(sign(base, at))).toBe(first); // the cached signing key is the day's
  });

  it('encodes as RFC 3986 and sorts the query by encoded name', () => {
    expect(uriEncode("a b!'()*~-_.")).toBe('a%20b%21%27%28%29%2A~-_.');
    expect(uriEncode('skills/x')).toBe('skills%2Fx');
    expect(canonicalQuery({ 'list-type': '2', prefix: 'apps/a b/', delimiter: '/', 'continuation-token': 'x=y' })).toBe(
      'continuation-token=x%3Dy&delimiter=%2F&list-type=2&prefix=apps%2Fa%20b%2F',
    );
    expect(amzDate(new Date('2026-12-01T04:05:06.789Z'))).toBe('20261201T040506Z');
  });
});
