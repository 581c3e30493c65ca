"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createObjectStore = createObjectStore;
exports.parseJson = parseJson;
const client_s3_1 = require("@aws-sdk/client-s3");
const errors_1 = require("./errors");
const s3_errors_1 = require("./s3-errors");
function createObjectStore(client, bucket) {
    async function get(key, ifNoneMatch) {
        try {
            const out = await client.send(new client_s3_1.GetObjectCommand({ Bucket: bucket, Key: key, IfNoneMatch: ifNoneMatch }));
            const bytes = out.Body ? await out.Body.transformToByteArray() : new Uint8Array();
            return { value: bytes, etag: requireEtag(key, out.ETag) };
        }
        catch (error) {
            if ((0, s3_errors_1.isNotModified)(error))
                return { notModified: true };
            if ((0, s3_errors_1.isNotFound)(error))
                return undefined;
            throw error;
        }
    }
    async function write(key, body, condition) {
        const { bytes, contentType } = encode(key, body);
        try {
            const out = await client.send(new client_s3_1.PutObjectCommand({
                Bucket: bucket,
                Key: key,
                Body: bytes,
                ContentType: contentType,
                IfNoneMatch: condition && 'ifNoneMatch' in condition ? '*' : undefined,
                IfMatch: condition && 'ifMatch' in condition ? condition.ifMatch : undefined,
            }));
            return { etag: requireEtag(key, out.ETag) };
        }
        catch (error) {
            if (condition && (0, s3_errors_1.isPreconditionFailure)(error))
                throw new errors_1.PreconditionConflictError(key, condition, { cause: error });
            throw error;
        }
    }
    async function listPage(prefix, delimiter, token) {
        return client.send(new client_s3_1.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }));
    }
    return {
        bucket,
        async getJson(key, schema) {
            const got = await get(key);
            if (!got || got.notModified)
                return undefined;
            return { value: parseJson(key, decodeText(got.value), schema), etag: got.etag };
        },
        async getText(key, ifNoneMatch) {
            const got = await get(key, ifNoneMatch);
            if (!got || got.notModified)
                return got;
            return { value: decodeText(got.value), etag: got.etag };
        },
        async getBytes(key) {
            const got = await get(key);
            return got && !got.notModified ? got : undefined;
        },
        putCreateOnly: (key, body) => write(key, body, { ifNoneMatch: '*' }),
        putIfMatch: (key, body, etag) => write(key, body, { ifMatch: etag }),
        put: (key, body) => write(key, body),
        async list(prefix) {
            const keys = [];
            let token;
            do {
                const page = await listPage(prefix, undefined, token);
                for (const item of page.Contents ?? [])
                    if (item.Key)
                        keys.push(item.Key);
                token = page.IsTruncated ? page.NextContinuationToken : undefined;
            } while (token);
            return keys.sort(lexical);
        },
        async listChildren(prefix) {
            const children = new Set();
            let token;
            do {
                const page = await listPage(prefix, '/', token);
                for (const p of page.CommonPrefixes ?? [])
                    if (p.Prefix)
                        children.add(p.Prefix.slice(prefix.length).replace(/\/$/, ''));
                for (const item of page.Contents ?? [])
                    if (item.Key)
                        children.add(item.Key.slice(prefix.length));
                token = page.IsTruncated ? page.NextContinuationToken : undefined;
            } while (token);
            return [...children].sort(lexical);
        },
        async exists(key) {
            try {
                await client.send(new client_s3_1.HeadObjectCommand({ Bucket: bucket, Key: key }));
                return true;
            }
            catch (error) {
                if ((0, s3_errors_1.isNotFound)(error))
                    return false;
                throw error;
            }
        },
        async delete(key) {
            try {
                await client.send(new client_s3_1.DeleteObjectCommand({ Bucket: bucket, Key: key }));
            }
            catch (error) {
                if (!(0, s3_errors_1.isNotFound)(error))
                    throw error;
            }
        },
    };
}
/** Parses stored JSON text against a schema; failures name the key. */
function parseJson(key, text, schema) {
    let raw;
    try {
        raw = JSON.parse(text);
    }
    catch (error) {
        throw new errors_1.CorruptObjectError(key, `not JSON (${error.message})`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
        throw new errors_1.CorruptObjectError(key, issues);
    }
    return parsed.data;
}
function encode(key, body) {
    if (body instanceof Uint8Array)
        return { bytes: body, contentType: 'application/octet-stream' };
    if (typeof body === 'string')
        return { bytes: body, contentType: contentTypeFor(key) };
    return { bytes: `${JSON.stringify(body, null, 2)}\n`, contentType: 'application/json' };
}
function contentTypeFor(key) {
    if (key.endsWith('.json'))
        return 'application/json';
    if (key.endsWith('.md'))
        return 'text/markdown; charset=utf-8';
    return 'text/plain; charset=utf-8';
}
function decodeText(bytes) {
    return new TextDecoder('utf-8').decode(bytes);
}
function requireEtag(key, etag) {
    if (!etag)
        throw new Error(`S3 returned no ETag for ${key}; conditional writes need one`);
    return etag;
}
// S3 lists in UTF-8 byte order; keys here are ASCII, where that equals code-unit order.
function lexical(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
//# sourceMappingURL=object-store.js.map