"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/** `npm run schemas`: writes schemas/*.schema.json from the zod schemas. */
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const paths_1 = require("../infra/paths");
const json_schemas_1 = require("./json-schemas");
const dir = (0, node_path_1.join)(paths_1.REPO_ROOT, 'schemas');
(0, node_fs_1.mkdirSync)(dir, { recursive: true });
for (const name of Object.keys(json_schemas_1.PUBLISHED_SCHEMAS)) {
    (0, node_fs_1.writeFileSync)((0, node_path_1.join)(dir, `${name}.schema.json`), (0, json_schemas_1.renderSchema)(name));
    console.log(`schemas/${name}.schema.json`);
}
//# sourceMappingURL=generate-json-schemas.js.map