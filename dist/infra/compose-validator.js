"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.composeCommand = composeCommand;
const node_child_process_1 = require("node:child_process");
/**
 * A command that can run `config` on docker-compose.yml without a Docker engine:
 * `docker compose` when the plugin exists, else Debian's `docker-compose` (installed
 * with apt-get when absent: this machine has the docker client but no compose plugin).
 */
function composeCommand(log = () => { }) {
    if ((0, node_child_process_1.spawnSync)('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0)
        return ['docker', 'compose'];
    if ((0, node_child_process_1.spawnSync)('docker-compose', ['version'], { stdio: 'ignore' }).status === 0)
        return ['docker-compose'];
    log('installing docker-compose from Debian packages (to validate docker-compose.yml) …');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    (0, node_child_process_1.execFileSync)('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
    (0, node_child_process_1.execFileSync)('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'docker-compose'], { stdio: 'ignore', env });
    return ['docker-compose'];
}
//# sourceMappingURL=compose-validator.js.map