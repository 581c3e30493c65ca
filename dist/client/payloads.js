"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.storeSessionEvents = storeSessionEvents;
const core_1 = require("../core");
const errors_1 = require("./errors");
/**
 * What a platform must do before it submits a segment that references stored events:
 * validate them as session events, redact credentials, and store the exact bytes at
 * `payloads/{sha256 of those bytes}` (create-only, so storing the same events twice is
 * harmless). Returns the reference to put in the segment (`evolution payload put FILE`).
 */
async function storeSessionEvents(store, events) {
    const parsed = (0, errors_1.parseInput)(core_1.SessionEventsSchema, events, 'session events');
    const payloadRef = await store.putPayload(JSON.stringify((0, core_1.redactSessionEvents)(parsed)));
    return { payloadRef, eventCount: parsed.length };
}
//# sourceMappingURL=payloads.js.map