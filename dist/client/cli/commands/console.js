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
exports.consoleCommands = void 0;
const args_1 = require("../args");
exports.consoleCommands = {
    console: {
        usage: 'console [--host 127.0.0.1] [--port 8080]',
        summary: 'the approver console: a web page to review, decide, roll back and watch experiments (users: EVOLUTION_CONSOLE_USERS)',
        run: async (ctx) => {
            const { createSkillStore } = await Promise.resolve().then(() => __importStar(require('../../../activities/storage')));
            const { connectTemporal } = await Promise.resolve().then(() => __importStar(require('../../connection')));
            const { consoleSettingsFromEnv } = await Promise.resolve().then(() => __importStar(require('../../console/settings')));
            const { startConsole } = await Promise.resolve().then(() => __importStar(require('../../console/server')));
            const settings = consoleSettingsFromEnv(process.env, { host: (0, args_1.flag)(ctx.args, 'host'), port: (0, args_1.flag)(ctx.args, 'port') });
            const config = ctx.config();
            const temporal = await connectTemporal(config);
            const running = await startConsole({ client: temporal.client, store: createSkillStore(config.s3), config }, settings);
            ctx.out({ url: running.url }, `evolution console listening on ${running.url} (Ctrl-C stops it)`);
            await new Promise((resolve) => {
                process.once('SIGINT', resolve);
                process.once('SIGTERM', resolve);
            });
            await running.close();
            await temporal.close();
        },
    },
};
//# sourceMappingURL=console.js.map