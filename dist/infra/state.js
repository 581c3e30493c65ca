"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stateFile = stateFile;
exports.readState = readState;
exports.writeState = writeState;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const paths_1 = require("./paths");
function stateFile() {
    return (0, node_path_1.join)((0, paths_1.stateDir)(), 'infra.json');
}
function readState() {
    const file = stateFile();
    if (!(0, node_fs_1.existsSync)(file))
        return { services: {} };
    try {
        return JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8'));
    }
    catch {
        return { services: {} };
    }
}
function writeState(state) {
    (0, node_fs_1.mkdirSync)((0, paths_1.stateDir)(), { recursive: true });
    const tmp = `${stateFile()}.${process.pid}.tmp`;
    (0, node_fs_1.writeFileSync)(tmp, JSON.stringify(state, null, 2));
    (0, node_fs_1.renameSync)(tmp, stateFile());
}
//# sourceMappingURL=state.js.map