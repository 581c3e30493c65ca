"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.main = main;
const args_1 = require("./args");
const commands_1 = require("./commands");
function help() {
    const width = Math.max(...Object.values(commands_1.COMMANDS).map((c) => c.usage.length));
    return ['usage: evolution <command> [options]   (every command takes --json)', '', ...Object.values(commands_1.COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`)].join('\n');
}
/** Runs one CLI invocation and returns the exit code (non-zero on any error). */
async function main(argv) {
    const [name, ...rest] = argv;
    if (!name || name === 'help' || name === '--help' || name === '-h') {
        console.log(help());
        return name ? 0 : 2;
    }
    const command = commands_1.COMMANDS[name];
    if (!command) {
        console.error(`unknown command "${name}"\n\n${help()}`);
        return 2;
    }
    const args = (0, args_1.parseArgs)(rest);
    const json = args.flags.get('json') === true;
    // Loaded here, not at the top: `evolution help` needs none of it (start-up time).
    const { loadConfig } = await Promise.resolve().then(() => __importStar(require('../config')));
    let config;
    const ctx = {
        args,
        json,
        config: () => (config ??= loadConfig()),
        out: (value, text) => console.log(json ? JSON.stringify(value, null, 2) : typeof text === 'function' ? text() : text),
    };
    // Long-running commands (worker, evaluator-worker) set up their own tracing.
    const tracing = name === 'worker' || name === 'evaluator-worker' ? undefined : (await Promise.resolve().then(() => __importStar(require('../../workers/telemetry/tracing')))).startTracingFromEnv(process.env, 'evolution-cli');
    try {
        return (await command.run(ctx)) ?? 0;
    }
    catch (e) {
        const { InputError, NotFoundError, ServiceUnavailableError, StateError } = await Promise.resolve().then(() => __importStar(require('../errors')));
        const { ConfigError } = await Promise.resolve().then(() => __importStar(require('../../core/config')));
        const { explainUnreachable } = await Promise.resolve().then(() => __importStar(require('../reachability')));
        const { TemporalConnectionError } = await Promise.resolve().then(() => __importStar(require('../connection')));
        // A raw network error from an SDK names no service: say which one, where, and what to do.
        const err = (config && explainUnreachable(e, config)) || e;
        const known = err instanceof args_1.UsageError || err instanceof TemporalConnectionError || err instanceof InputError || err instanceof NotFoundError || err instanceof StateError || err instanceof ConfigError || err instanceof ServiceUnavailableError;
        if (json)
            console.error(JSON.stringify({ error: err.name, message: err.message }));
        else
            console.error(`evolution ${name}: ${known ? err.message : err.stack ?? err.message}${err instanceof args_1.UsageError ? `\nusage: evolution ${command.usage}` : ''}`);
        return err instanceof args_1.UsageError ? 2 : 1;
    }
    finally {
        await tracing?.shutdown();
    }
}
if (require.main === module) {
    main(process.argv.slice(2)).then((code) => process.exit(code));
}
//# sourceMappingURL=main.js.map