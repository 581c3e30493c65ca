const BASE = 'http://console.invalid';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f\\]/;

/**
 * Where to go after sign-in: only a path on this site. Browsers drop tabs and newlines from
 * a Location and read `\` as `/`, so `/\t/evil.example` or `/\evil.example` would leave the
 * site: any control character or backslash, and any scheme-relative or absolute form, gives
 * `/`. The answer is the path as the URL parser serializes it.
 */
export function sameOriginPath(next: string | undefined): string {
  if (!next || next.length > 2048 || !next.startsWith('/') || next.startsWith('//') || UNSAFE.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : '/';
}
