"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=command.js.map