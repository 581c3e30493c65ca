/**
 * Python's `json.dumps` (and other encoders) write non-finite floats as the bare tokens
 * `NaN`, `Infinity` and `-Infinity`, which are not JSON. This quotes those tokens
 * (outside string literals) so the document parses and the value arrives as the string
 * "NaN" / "Infinity" / "-Infinity": a checker downstream then rejects it with a message
 * that names the field, instead of the whole payload failing to decode.
 * Returns the text unchanged when it has no such token.
 */
export function quoteNonFiniteNumbers(text: string): string {
  let out = '';
  let copiedThrough = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    const token = text.startsWith('NaN', i) ? 'NaN' : text.startsWith('-Infinity', i) ? '-Infinity' : text.startsWith('Infinity', i) ? 'Infinity' : undefined;
    if (token) {
      out += `${text.slice(copiedThrough, i)}"${token}"`;
      i += token.length - 1;
      copiedThrough = i + 1;
    }
  }
  return copiedThrough === 0 ? text : out + text.slice(copiedThrough);
}
