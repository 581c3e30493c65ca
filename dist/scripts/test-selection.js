"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unitTestsOnly = unitTestsOnly;
// Which vitest arguments `npm test` can run without the local services and the build.
/** Only unit tests selected: positional arguments that are all paths under test/unit. */
function unitTestsOnly(args) {
    const positionals = args.filter((a, i) => !a.startsWith('-') && !(i > 0 && /^-[a-zA-Z]$|^--(testNamePattern|project|reporter|config|root|dir)$/.test(args[i - 1])));
    return positionals.length > 0 && positionals.every((p) => /^(\.\/)?test\/unit(\/|$)/.test(p));
}
//# sourceMappingURL=test-selection.js.map