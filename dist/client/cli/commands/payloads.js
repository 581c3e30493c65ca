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
exports.payloadCommands = void 0;
const node_fs_1 = require("node:fs");
const args_1 = require("../args");
const services_1 = require("../services");
exports.payloadCommands = {
    payload: {
        usage: 'payload put FILE',
        summary: 'validate session events (FILE: JSON array of chat messages), redact credentials, store them at payloads/{sha256}; prints the payloadRef',
        run: async (ctx) => {
            const { InputError } = await Promise.resolve().then(() => __importStar(require('../../errors')));
            const { storeSessionEvents } = await Promise.resolve().then(() => __importStar(require('../../payloads')));
            const action = (0, args_1.positional)(ctx.args, 0, 'put');
            if (action !== 'put')
                throw new InputError(`unknown payload action "${action}" (known: put)`);
            const file = (0, args_1.positional)(ctx.args, 1, 'FILE');
            let events;
            try {
                events = JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8'));
            }
            catch (e) {
                throw new InputError(`cannot read session events from ${file}: ${e.message}`);
            }
            const stored = await storeSessionEvents(await (0, services_1.storeOnly)(ctx), events);
            ctx.out(stored, `payloads/${stored.payloadRef.sha256}  (${stored.payloadRef.bytes} bytes, ${stored.eventCount} events)\npayloadRef: ${JSON.stringify(stored.payloadRef)}`);
        },
    },
};
//# sourceMappingURL=payloads.js.map