"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createS3Client = createS3Client;
const node_https_1 = require("node:https");
const client_s3_1 = require("@aws-sdk/client-s3");
const tls_1 = require("../tls");
/**
 * Temporal decides activity retries; the SDK only rides out a network blip or two.
 * (A retried conditional PUT whose first response was lost comes back as a 412; the
 * stores treat "412 but the stored object is what I wrote" as success.)
 */
const SDK_MAX_ATTEMPTS = 3;
function createS3Client(s3) {
    // Our pinned SDK supports Node 20; its end-of-support notice is noise.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    return new client_s3_1.S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: s3.forcePathStyle,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        maxAttempts: SDK_MAX_ATTEMPTS,
        // Checksums only where S3 requires them: not every S3-compatible server accepts
        // the SDK's default CRC32 trailers, and ETags already cover our small objects.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        requestHandler: {
            connectionTimeout: 5_000,
            requestTimeout: 30_000,
            ...(s3.caFile ? { httpsAgent: new node_https_1.Agent({ keepAlive: true, ca: (0, tls_1.readCaBundle)('EVOLUTION_S3_CA_FILE', s3.caFile) }) } : {}),
        },
    });
}
//# sourceMappingURL=s3-client.js.map