"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.infraEnv = infraEnv;
const binaries_1 = require("./binaries");
const services_1 = require("./services");
const state_1 = require("./state");
/**
 * The environment variables that point the worker, client, tests and demo at the
 * local services. Real deployments set these variables themselves.
 */
function infraEnv(state = (0, state_1.readState)()) {
    const env = { TEMPORAL_TEST_SERVER_PATH: (0, binaries_1.binaryPath)('temporal-test-server') };
    const { temporal, s3, model } = state.services;
    if (temporal) {
        env.TEMPORAL_ADDRESS = temporal.endpoint;
        if (temporal.extra?.ui)
            env.TEMPORAL_UI_URL = temporal.extra.ui;
    }
    if (s3) {
        const { accessKeyId, secretAccessKey, bucket } = (0, services_1.localS3Settings)();
        Object.assign(env, { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: 'true' });
    }
    if (model)
        env.OPENAI_BASE_URL = model.endpoint;
    return env;
}
//# sourceMappingURL=env.js.map