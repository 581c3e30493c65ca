"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readState = exports.PINNED_BINARIES = exports.binaryPath = exports.ensureBinary = exports.infraEnv = exports.infraStatus = exports.infraDown = exports.infraUp = void 0;
// Local infrastructure for development, tests and the demo (not used in production).
var manager_1 = require("./manager");
Object.defineProperty(exports, "infraUp", { enumerable: true, get: function () { return manager_1.infraUp; } });
Object.defineProperty(exports, "infraDown", { enumerable: true, get: function () { return manager_1.infraDown; } });
Object.defineProperty(exports, "infraStatus", { enumerable: true, get: function () { return manager_1.infraStatus; } });
var env_1 = require("./env");
Object.defineProperty(exports, "infraEnv", { enumerable: true, get: function () { return env_1.infraEnv; } });
var binaries_1 = require("./binaries");
Object.defineProperty(exports, "ensureBinary", { enumerable: true, get: function () { return binaries_1.ensureBinary; } });
Object.defineProperty(exports, "binaryPath", { enumerable: true, get: function () { return binaries_1.binaryPath; } });
Object.defineProperty(exports, "PINNED_BINARIES", { enumerable: true, get: function () { return binaries_1.PINNED_BINARIES; } });
var state_1 = require("./state");
Object.defineProperty(exports, "readState", { enumerable: true, get: function () { return state_1.readState; } });
//# sourceMappingURL=index.js.map