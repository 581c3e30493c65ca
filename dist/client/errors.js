"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ServiceUnavailableError = exports.StateError = exports.NotFoundError = exports.InputError = void 0;
exports.parseInput = parseInput;
const zod_1 = require("zod");
/** Bad input at the client boundary: nothing was started or stored. */
class InputError extends Error {
    name = 'InputError';
}
exports.InputError = InputError;
/** The thing asked for does not exist (revision, skill, experiment). */
class NotFoundError extends Error {
    name = 'NotFoundError';
}
exports.NotFoundError = NotFoundError;
/** The request conflicts with current state (already decided, not archived, stale parent). */
class StateError extends Error {
    name = 'StateError';
}
exports.StateError = StateError;
/** Parses with zod; on failure throws an InputError whose message lists every problem by path. */
function parseInput(schema, value, what) {
    const r = schema.safeParse(value);
    if (!r.success)
        throw new InputError(`invalid ${what}:\n${(0, zod_1.prettifyError)(r.error)}`);
    return r.data;
}
/**
 * A service this process needs cannot be reached (connection refused, timed out, DNS).
 * The message is one line: which service, at which address, and what to do about it.
 */
class ServiceUnavailableError extends Error {
    service;
    address;
    remedy;
    name = 'ServiceUnavailableError';
    constructor(service, address, remedy, options = {}) {
        super(`${service} at ${address} cannot be reached${options.detail ? ` (${options.detail})` : ''}: ${remedy}`, { cause: options.cause });
        this.service = service;
        this.address = address;
        this.remedy = remedy;
    }
}
exports.ServiceUnavailableError = ServiceUnavailableError;
//# sourceMappingURL=errors.js.map