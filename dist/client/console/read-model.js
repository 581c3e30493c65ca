"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.visibleScopes = visibleScopes;
exports.pendingFor = pendingFor;
exports.revisionFor = revisionFor;
exports.decideFor = decideFor;
exports.skillsFor = skillsFor;
exports.skillTimelineFor = skillTimelineFor;
exports.rollbackFor = rollbackFor;
exports.experimentsFor = experimentsFor;
exports.experimentFor = experimentFor;
exports.activityFor = activityFor;
const core_1 = require("../../core");
const storage_1 = require("../../activities/storage");
const records_1 = require("../../activities/gepa/records");
const approvals_1 = require("../approvals");
const errors_1 = require("../errors");
const metrics_1 = require("../metrics");
const optimization_1 = require("../optimization");
const rollback_1 = require("../rollback");
const errors_2 = require("./errors");
const users_1 = require("./users");
const READS = 8;
/**
 * Scope keys stored in the bucket that the user may see. Literal patterns need no
 * listing; a wildcard lists only the levels of the scope tree it can match
 * (`users/shop/*` lists `scopes/users/shop/` and nothing else).
 */
async function visibleScopes(store, user) {
    const literal = user.scopes.filter((p) => !p.endsWith('*'));
    const wildcards = user.scopes.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
    const isLeaf = (segs) => (segs.length === 1 && segs[0] === 'global') || (segs[0] === 'apps' && segs.length === 2) || (segs[0] === 'users' && segs.length === 3);
    const mayHoldMatches = (key) => wildcards.some((q) => q.startsWith(`${key}/`) || `${key}/`.startsWith(q));
    async function walk(segs) {
        const key = segs.join('/');
        if (isLeaf(segs))
            return (0, users_1.canSee)(user, key) ? [key] : [];
        if (segs.length > 0 && !mayHoldMatches(key))
            return [];
        let children = await store.objects.listChildren(segs.length ? `scopes/${key}/` : 'scopes/');
        if (segs.length === 0)
            children = children.filter((c) => c === 'global' || c === 'apps' || c === 'users');
        return (await (0, storage_1.mapLimit)(children, READS, (c) => walk([...segs, c]))).flat();
    }
    const listed = wildcards.length ? await walk([]) : [];
    return [...new Set([...literal, ...listed])].sort();
}
function mustSee(user, scopeKey, what) {
    if (!(0, users_1.canSee)(user, scopeKey))
        throw new errors_1.NotFoundError(`no ${what}`);
}
function mustAct(user, what) {
    if (!(0, users_1.canAct)(user))
        throw new errors_2.ForbiddenError(`${user.name} is a ${user.role}: viewers cannot ${what}`);
}
/**
 * Revisions waiting for a person in the user's scopes, oldest first, with their
 * auto-expiry (one workflow query each; `deadlines: false` skips them, for polling).
 */
async function pendingFor(deps, user, opts = {}) {
    const scopes = await visibleScopes(deps.store, user);
    const revisions = (await (0, storage_1.mapLimit)(scopes, READS, (s) => (0, approvals_1.listPending)(deps.store, s, ['pending_approval']))).flat();
    revisions.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return (0, storage_1.mapLimit)(revisions, READS, async (r) => {
        const expiresAt = opts.deadlines === false ? undefined : await (0, approvals_1.approvalDeadline)(deps.client, r.id);
        return {
            revisionId: r.id,
            scopeKey: r.scopeKey,
            skillId: r.skillId,
            name: r.spec?.name ?? r.skillId,
            action: r.action,
            source: r.source,
            createdAt: r.createdAt,
            ...(expiresAt ? { expiresAt } : {}),
        };
    });
}
async function revisionFor(deps, user, revisionId) {
    let view;
    try {
        view = await (0, approvals_1.showRevision)(deps.store, revisionId);
    }
    catch (e) {
        if (e instanceof errors_1.NotFoundError)
            throw new errors_1.NotFoundError(`no revision ${revisionId}`);
        throw e;
    }
    mustSee(user, view.revision.scopeKey, `revision ${revisionId}`);
    const audit = await deps.store.listAudit(view.revision.scopeKey, view.revision.skillId);
    return { ...view, audit };
}
/** Approve or reject under the signed-in user's name (never a name from the request). */
async function decideFor(deps, user, revisionId, input) {
    await revisionFor(deps, user, revisionId);
    mustAct(user, 'approve or reject');
    return (0, approvals_1.decideRevision)(deps, revisionId, { decision: input.decision, reviewer: user.name, ...(input.comment ? { comment: input.comment } : {}) });
}
async function skillsFor(deps, user, scopeKey) {
    mustSee(user, scopeKey, `scope ${scopeKey}`);
    const index = await deps.store.readScopeIndex(scopeKey);
    return index && !index.notModified ? index.index.skills : [];
}
async function skillTimelineFor(deps, user, scopeKey, skillId) {
    mustSee(user, scopeKey, `skill ${skillId}`);
    const [revisions, active, audit] = await Promise.all([
        (0, approvals_1.listSkillRevisions)(deps.store, scopeKey, skillId),
        deps.store.readActive(scopeKey, skillId),
        deps.store.listAudit(scopeKey, skillId),
    ]);
    if (revisions.length === 0 && !active)
        throw new errors_1.NotFoundError(`no skill ${skillId}`);
    return { scopeKey, skillId, activeRevisionId: active && !active.pointer.deleted ? active.pointer.revisionId : undefined, revisions, audit };
}
async function rollbackFor(deps, user, input) {
    await skillTimelineFor(deps, user, input.scopeKey, input.skillId);
    mustAct(user, 'roll back');
    return (0, rollback_1.rollbackSkill)(deps, { ...input, reviewer: user.name });
}
function experimentScope(record) {
    const scope = core_1.ScopeSchema.safeParse(record.request?.scope);
    return scope.success ? (0, core_1.scopeKey)(scope.data) : undefined;
}
/** Experiments whose scope the user may see, newest first. */
async function experimentsFor(deps, user) {
    const reader = (0, records_1.experimentReader)(deps.store);
    const ids = await deps.store.objects.listChildren('experiments/');
    const rows = await (0, storage_1.mapLimit)(ids, READS, async (id) => {
        const record = await reader.experiment(id);
        const scopeKey = record && experimentScope(record);
        if (!record || !scopeKey || !(0, users_1.canSee)(user, scopeKey))
            return undefined;
        const report = await reader.result(id);
        const request = record.request;
        return {
            experimentId: record.experimentId,
            scopeKey,
            ...(request?.skillId ? { skillId: request.skillId } : {}),
            startedAt: record.startedAt,
            dataset: `${record.dataset.id}@${record.dataset.version}`,
            status: report?.status ?? 'running',
            ...(report?.submittedRevisionId ?? report?.submission?.revisionId ? { submittedRevisionId: report.submittedRevisionId ?? report.submission?.revisionId } : {}),
        };
    });
    return rows.filter((r) => r !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
async function experimentFor(deps, user, experimentId) {
    const record = await (0, records_1.experimentReader)(deps.store).experiment(experimentId).catch(() => undefined);
    const scopeKey = record && experimentScope(record);
    if (!record || !scopeKey || !(0, users_1.canSee)(user, scopeKey))
        throw new errors_1.NotFoundError(`no experiment ${experimentId}`);
    const [view, records] = await Promise.all([(0, optimization_1.getExperiment)(deps, experimentId), (0, optimization_1.readExperimentRecords)(deps.store, experimentId)]);
    const byId = (id) => records.evaluations.find((e) => e.recordId === id);
    const seedHoldout = byId('e-holdout-seed');
    const winnerHoldout = byId('e-holdout-winner');
    const critical = new Set((record.dataset.criticalHoldoutCases) ?? []);
    const caseIds = [...new Set([...(seedHoldout?.caseIds ?? []), ...(winnerHoldout?.caseIds ?? [])])];
    const score = (r, id) => r?.evaluations.find((e) => e.caseId === id)?.score;
    const request = record.request;
    return {
        summary: {
            experimentId,
            scopeKey,
            ...(request?.skillId ? { skillId: request.skillId } : {}),
            startedAt: record.startedAt,
            dataset: `${record.dataset.id}@${record.dataset.version}`,
            status: view.status,
            ...(view.report?.submission?.revisionId ? { submittedRevisionId: view.report.submission.revisionId } : {}),
        },
        view,
        seedValidationMean: byId('e-seed-validation')?.summary.mean ?? view.report?.seedValidationMean,
        log: records.log,
        holdout: caseIds.map((caseId) => ({ caseId, critical: critical.has(caseId), seed: score(seedHoldout, caseId), winner: score(winnerHoldout, caseId) })),
    };
}
/** The audit log across the user's scopes (newest first, filtered) and each scope's governance counters. */
async function activityFor(deps, user, filter = {}) {
    let scopes = await visibleScopes(deps.store, user);
    if (filter.scopeKey)
        scopes = scopes.filter((s) => s === filter.scopeKey);
    const perScope = await (0, storage_1.mapLimit)(scopes, READS, async (scopeKey) => {
        const skillIds = (await deps.store.listSkillIds(scopeKey)).filter((id) => !filter.skillId || id === filter.skillId);
        const events = (await (0, storage_1.mapLimit)(skillIds, READS, (id) => deps.store.listAudit(scopeKey, id))).flat();
        return { scopeKey, events, metrics: await (0, metrics_1.scopeMetrics)(deps.store, scopeKey) };
    });
    const events = perScope
        .flatMap((s) => s.events)
        .filter((e) => (!filter.action || e.action === filter.action) && (!filter.actor || e.actor === filter.actor))
        .sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id))
        .slice(0, filter.limit ?? 500);
    return { events, metrics: Object.fromEntries(perScope.map((s) => [s.scopeKey, s.metrics])) };
}
//# sourceMappingURL=read-model.js.map