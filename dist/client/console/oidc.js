"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.looksLikeJwt = looksLikeJwt;
exports.jwtVerifier = jwtVerifier;
const jose_1 = require("jose");
const zod_1 = require("zod");
const users_1 = require("./users");
const ClaimsSchema = zod_1.z.object({
    sub: zod_1.z.string().optional(),
    preferred_username: zod_1.z.string().optional(),
    email: zod_1.z.string().optional(),
    evolution_role: zod_1.z.unknown(),
    evolution_scopes: zod_1.z.union([zod_1.z.array(zod_1.z.string()), zod_1.z.string().transform((s) => s.split(/\s+/).filter(Boolean))]),
});
function looksLikeJwt(token) {
    return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}
function jwtVerifier(settings, keys = (0, jose_1.createRemoteJWKSet)(new URL(settings.jwksUrl))) {
    return async (token) => {
        if (!looksLikeJwt(token))
            return undefined;
        try {
            const { payload } = await (0, jose_1.jwtVerify)(token, keys, { issuer: settings.issuer, audience: settings.audience, algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'] });
            const claims = ClaimsSchema.parse(payload);
            const user = users_1.ConsoleUserSchema.safeParse({ name: claims.preferred_username ?? claims.email ?? claims.sub, role: claims.evolution_role, scopes: claims.evolution_scopes });
            return user.success ? user.data : undefined;
        }
        catch {
            return undefined;
        }
    };
}
//# sourceMappingURL=oidc.js.map