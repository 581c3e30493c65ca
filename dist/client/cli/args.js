"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UsageError = void 0;
exports.parseArgs = parseArgs;
exports.flag = flag;
exports.requiredFlag = requiredFlag;
exports.boolFlag = boolFlag;
exports.numberFlag = numberFlag;
exports.positional = positional;
class UsageError extends Error {
    name = 'UsageError';
}
exports.UsageError = UsageError;
function parseArgs(argv, booleanFlags = []) {
    const positionals = [];
    const flags = new Map();
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (!a.startsWith('--')) {
            positionals.push(a);
            continue;
        }
        const eq = a.indexOf('=');
        const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
        if (eq > 0)
            flags.set(name, a.slice(eq + 1));
        else if (booleanFlags.includes(name) || name === 'json' || name === 'wait' || i + 1 >= argv.length || argv[i + 1].startsWith('--'))
            flags.set(name, true);
        else
            flags.set(name, argv[++i]);
    }
    return { positionals, flags };
}
function flag(args, name) {
    const v = args.flags.get(name);
    if (v === true)
        throw new UsageError(`--${name} needs a value`);
    return v;
}
function requiredFlag(args, name) {
    const v = flag(args, name);
    if (v === undefined || v === '')
        throw new UsageError(`--${name} is required`);
    return v;
}
function boolFlag(args, name) {
    return args.flags.get(name) === true || args.flags.get(name) === 'true';
}
function numberFlag(args, name) {
    const v = flag(args, name);
    if (v === undefined)
        return undefined;
    const n = Number(v);
    if (!Number.isFinite(n))
        throw new UsageError(`--${name} must be a number, got "${v}"`);
    return n;
}
function positional(args, index, what) {
    const v = args.positionals[index];
    if (!v)
        throw new UsageError(`missing ${what}`);
    return v;
}
//# sourceMappingURL=args.js.map