import { describe, expect, it } from 'vitest';
import { parseErrorBody, parseListPage } from '../../storage/s3-xml';

describe('S3 XML answers', () => {
  it('reads keys, common prefixes and the continuation token of a ListObjectsV2 page', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix>apps/</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>true</IsTruncated>
<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
<Contents><Key>apps/a&amp;b.json</Key><LastModified>2026-12-01T00:00:00.000Z</LastModified><ETag>&quot;abc&quot;</ETag><Size>2</Size></Contents>
<Contents><Key>apps/caf&#233;&#x21;.md</Key><Size>1</Size></Contents>
<CommonPrefixes><Prefix>apps/x/</Prefix></CommonPrefixes><CommonPrefixes><Prefix>apps/y&lt;z/</Prefix></CommonPrefixes>
</ListBucketResult>`;
    expect(parseListPage(xml)).toEqual({
      keys: ['apps/a&b.json', 'apps/café!.md'],
      prefixes: ['apps/x/', 'apps/y<z/'],
      nextToken: '1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=',
    });
  });

  it('a last page has no token; an empty one no keys', () => {
    expect(parseListPage('<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>k</Key></Contents></ListBucketResult>')).toEqual({ keys: ['k'], prefixes: [] });
    expect(parseListPage('<ListBucketResult><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>')).toEqual({ keys: [], prefixes: [] });
  });

  it('refuses a truncated page without a token (it would end the listing early)', () => {
    expect(() => parseListPage('<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>')).toThrow(/truncated but has no NextContinuationToken/);
  });

  it('reads the code and message of an error body, and nothing from other bodies', () => {
    expect(
      parseErrorBody(
        '<?xml version="1.0"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Key>k</Key></Error>',
      ),
    ).toEqual({
      code: 'PreconditionFailed',
      message: 'At least one of the pre-conditions you specified did not hold',
    });
    expect(parseErrorBody('')).toEqual({});
    expect(parseErrorBody('<html>Bad Gateway</html>')).toEqual({});
  });
});
