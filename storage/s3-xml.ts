/**
 * The two S3 XML answers the store reads: a ListObjectsV2 page and an error body. S3
 * escapes only the five XML entities (and numeric references) in these documents; none
 * of them nests an element in a value.
 */

export interface ListPage {
  keys: string[];
  /** CommonPrefixes (with a delimiter), each ending in the delimiter. */
  prefixes: string[];
  /** Set when the listing goes on: pass it as `continuation-token`. */
  nextToken?: string;
}

export function parseListPage(xml: string): ListPage {
  const keys = elements(xml, 'Contents').flatMap((c) => elements(c, 'Key'));
  const prefixes = elements(xml, 'CommonPrefixes').flatMap((c) => elements(c, 'Prefix'));
  const truncated = firstElement(xml, 'IsTruncated') === 'true';
  const nextToken = truncated ? firstElement(xml, 'NextContinuationToken') : undefined;
  if (truncated && !nextToken) throw new Error('S3 listing is truncated but has no NextContinuationToken');
  return { keys, prefixes, ...(nextToken ? { nextToken } : {}) };
}

/** Code and message of an S3 error body; empty for a body that is not one (a HEAD's, a proxy's). */
export function parseErrorBody(xml: string): { code?: string; message?: string } {
  if (!/<Error[\s>]/.test(xml)) return {};
  const code = firstElement(xml, 'Code');
  const message = firstElement(xml, 'Message');
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

function elements(xml: string, name: string): string[] {
  const out: string[] = [];
  const pattern = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g');
  for (let m = pattern.exec(xml); m; m = pattern.exec(xml)) out.push(unescapeXml(m[1]!));
  return out;
}

function firstElement(xml: string, name: string): string | undefined {
  return elements(xml, name)[0];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, entity: string) =>
    entity.startsWith('#x') ? String.fromCodePoint(parseInt(entity.slice(2), 16)) : entity.startsWith('#') ? String.fromCodePoint(Number(entity.slice(1))) : ENTITIES[entity]!,
  );
}
