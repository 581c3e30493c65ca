"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkAgainstSchema = checkAgainstSchema;
function checkAgainstSchema(value, schema) {
    return check(value, schema, schema, '$', 0);
}
function check(value, schema, root, path, depth) {
    if (depth > 64)
        return { path, message: 'schema nesting is too deep (recursive $ref?)' };
    if (typeof schema.$ref === 'string') {
        const target = resolveRef(schema.$ref, root);
        if (!target)
            return { path, message: `cannot resolve $ref ${schema.$ref}` };
        return check(value, target, root, path, depth + 1);
    }
    for (const keyword of ['anyOf', 'oneOf']) {
        const options = schema[keyword];
        if (Array.isArray(options)) {
            const ok = options.some((option) => isSchema(option) && !check(value, option, root, path, depth + 1));
            if (!ok)
                return { path, message: `matches none of the ${keyword} alternatives` };
        }
    }
    if (schema.type !== undefined) {
        const types = Array.isArray(schema.type) ? schema.type : [schema.type];
        if (!types.some((t) => typeof t === 'string' && hasType(value, t))) {
            return { path, message: `expected ${types.join(' | ')}, got ${describe(value)}` };
        }
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value))) {
        return { path, message: `must be one of ${JSON.stringify(schema.enum)}` };
    }
    if ('const' in schema && !deepEqual(schema.const, value)) {
        return { path, message: `must equal ${JSON.stringify(schema.const)}` };
    }
    if (typeof value === 'string') {
        const length = Array.from(value).length;
        if (typeof schema.minLength === 'number' && length < schema.minLength)
            return { path, message: `shorter than ${schema.minLength}` };
        if (typeof schema.maxLength === 'number' && length > schema.maxLength)
            return { path, message: `longer than ${schema.maxLength}` };
    }
    if (Array.isArray(value)) {
        if (typeof schema.minItems === 'number' && value.length < schema.minItems)
            return { path, message: `fewer than ${schema.minItems} items` };
        if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
            return { path, message: `more than ${schema.maxItems} items` };
        if (isSchema(schema.items)) {
            for (let i = 0; i < value.length; i++) {
                const v = check(value[i], schema.items, root, `${path}[${i}]`, depth + 1);
                if (v)
                    return v;
            }
        }
    }
    if (isPlainObject(value)) {
        const properties = isSchema(schema.properties) ? schema.properties : {};
        if (Array.isArray(schema.required)) {
            for (const key of schema.required) {
                if (typeof key === 'string' && !(key in value))
                    return { path, message: `missing required property "${key}"` };
            }
        }
        for (const [key, v] of Object.entries(value)) {
            const propertySchema = properties[key];
            if (isSchema(propertySchema)) {
                const violation = check(v, propertySchema, root, `${path}.${key}`, depth + 1);
                if (violation)
                    return violation;
            }
            else if (schema.additionalProperties === false) {
                return { path, message: `property "${key}" is not allowed` };
            }
            else if (isSchema(schema.additionalProperties)) {
                const violation = check(v, schema.additionalProperties, root, `${path}.${key}`, depth + 1);
                if (violation)
                    return violation;
            }
        }
    }
    return undefined;
}
function resolveRef(ref, root) {
    if (ref === '#')
        return root;
    if (!ref.startsWith('#/'))
        return undefined;
    let node = root;
    for (const raw of ref.slice(2).split('/')) {
        const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
        if (!isPlainObject(node))
            return undefined;
        node = node[key];
    }
    return isSchema(node) ? node : undefined;
}
function hasType(value, type) {
    switch (type) {
        case 'string':
            return typeof value === 'string';
        case 'number':
            return typeof value === 'number' && Number.isFinite(value);
        case 'integer':
            return typeof value === 'number' && Number.isInteger(value);
        case 'boolean':
            return typeof value === 'boolean';
        case 'null':
            return value === null;
        case 'array':
            return Array.isArray(value);
        case 'object':
            return isPlainObject(value);
        default:
            return true;
    }
}
function describe(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'array';
    return typeof value;
}
function isPlainObject(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isSchema(v) {
    return isPlainObject(v);
}
function deepEqual(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
}
//# sourceMappingURL=json-schema-check.js.map