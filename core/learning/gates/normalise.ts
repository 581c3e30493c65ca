/**
 * The form of a text every gate checks: what a shell or a model would make of it, rather
 * than how it is spelled. A poisoned transcript spells a forbidden command or phrase so
 * that a plain pattern misses it (`r''m -rf //*`, `"${HOME:?}"`, a zero-width space inside
 * "ig<U+200B>nore", fullwidth or Cyrillic look-alike letters); the gates match the normalised
 * text, so one pattern covers the spellings. Every step is one linear pass.
 *
 * The result is for matching only, never shown or stored: quotes are gone (so `don't`
 * reads `dont`), and backslashes before word characters are dropped as a shell drops them.
 */
export function normaliseGateText(text: string): string {
  let t = text.normalize('NFKC');
  t = t.replace(INVISIBLE, '');
  t = t.replace(LINE_BREAKS, '\n');
  t = t.replace(LOOK_ALIKES, (c) => LOOK_ALIKE_MAP[c] ?? c);
  t = decodeAnsiCQuotes(t);
  // A backslash before a newline continues the command on the next line.
  t = t.replace(/\\\n/g, '');
  // Shell quoting adds nothing a gate needs and splits words: r''m, "r"m, 'rm' all run rm.
  t = t.replace(QUOTES, '');
  // Outside quotes a shell drops a backslash before an ordinary character: \rm runs rm.
  t = t.replace(/\\([\w./~$@%+=:,-])/g, '$1');
  // ${HOME}, ${HOME:?}, ${HOME:-/x} all expand to $HOME (when set).
  t = t.replace(/\$\{(\w{1,64})(?:[:?+=#%^,-][^}\n]{0,128})?\}/g, '$$$1');
  // //, ///: one slash; /./ too (a URL's scheme separator stays).
  t = t.replace(/(?<!:)\/{2,}/g, '/');
  t = t.replace(/\/(?:\.\/)+/g, '/');
  t = t.replace(/[ \t\f\v]+/g, ' ');
  return t;
}

// Format characters (zero-width spaces and joiners, bidi controls, soft hyphen, BOM) and
// every other default-ignorable code point: invisible when rendered, and they split words.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;
// Shell quotes, and the typographic quotes a model may be shown instead.
const QUOTES = /['"\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F\u2032\u2033\u00B4\u0060]/g;

/**
 * Cyrillic and Greek letters that render like Latin ones (NFKC keeps them apart): enough
 * to read "іgnоrе" as "ignore" and "сurl" as "curl". Not a full confusables table.
 */
const LOOK_ALIKE_MAP: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ε: 'e',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const LOOK_ALIKES = new RegExp(`[${Object.keys(LOOK_ALIKE_MAP).join('')}]`, 'g');

/** Bash's $'…' quoting spells characters as escapes ($'\x72m' is rm): decode them. */
function decodeAnsiCQuotes(t: string): string {
  return t.replace(/\$'([^'\n]{0,4096})'/g, (_m, body: string) =>
    body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{4}|[0-7]{1,3}|.)/g, (_e, esc: string) => {
      if (esc[0] === 'x' || esc[0] === 'u') return String.fromCharCode(parseInt(esc.slice(1), 16));
      if (/^[0-7]/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
      return ({ n: '\n', t: '\t', r: '', a: '', b: '', e: '', f: '', v: '' } as Record<string, string>)[esc] ?? esc;
    }),
  );
}
