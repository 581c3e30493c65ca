"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.failureMessage = failureMessage;
/** The most specific message of a failure chain (ChildWorkflowFailure → ActivityFailure → ApplicationFailure). */
function failureMessage(err) {
    let e = err;
    let message = e?.message ?? String(err);
    while (e?.cause) {
        e = e.cause;
        if (e?.message)
            message = e.message;
    }
    return message;
}
//# sourceMappingURL=failure.js.map