"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * `npm run demo`: the main job end to end on local services (Temporal dev server,
 * SeaweedFS S3, the deterministic local model server standing in for an LLM).
 */
const storage_1 = require("../activities/storage");
const approvals_1 = require("../client/approvals");
const config_1 = require("../client/config");
const learning_1 = require("../client/learning");
const rollback_1 = require("../client/rollback");
const skill_repository_1 = require("../client/skill-repository");
const skill_load_tool_1 = require("../client/skill-load-tool");
const metrics_1 = require("../client/metrics");
const governance_1 = require("../core/governance");
const core_1 = require("../core");
const optimization_1 = require("../client/optimization");
const format_experiment_1 = require("../client/cli/format-experiment");
const evaluator_1 = require("../workers/evaluator");
const infra_1 = require("../infra");
const workflows_1 = require("../workflows");
const in_process_1 = require("../workers/in-process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const paths_1 = require("../infra/paths");
const local_access_1 = require("../client/console/local-access");
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (n, title) => console.log(`\n${bold(`── ${n}. ${title}`)}`);
const indent = (text, by = '   ') => text.split('\n').map((l) => by + l).join('\n');
const session = (name) => JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(paths_1.REPO_ROOT, 'examples', 'sessions', `${name}.json`), 'utf8'));
async function main() {
    console.log(bold('Skill Evolution on Temporal — demo'));
    const state = await (0, infra_1.infraUp)({ log: (l) => console.log(`   [infra] ${l}`) });
    const env = (0, infra_1.infraEnv)(state);
    const base = (0, config_1.loadConfig)({ ...process.env, ...env });
    const config = { ...base, governance: { ...base.governance, humanGate: 'create_only', shadowMode: false, approvalTimeoutMs: 72 * 3600_000 } };
    console.log(`   Temporal ${env.TEMPORAL_ADDRESS} (UI ${env.TEMPORAL_UI_URL}), S3 ${env.S3_ENDPOINT}, model server ${env.OPENAI_BASE_URL} (a deterministic stand-in for an LLM)`);
    const worker = await (0, in_process_1.startMainWorker)(config, { taskQueue: `demo-${Date.now()}` });
    const store = (0, storage_1.createSkillStore)(config.s3);
    const deps = { client: worker.client, store, config: worker.config };
    const app = `demo-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}`;
    const scope = { mode: 'app', app };
    const repo = new skill_repository_1.SkillRepository(store, scope);
    try {
        step(1, `A finished session: a multi-city weather report with a timeout and a retry (app "${app}")`);
        const first = await (0, learning_1.startLearningJob)(deps, { app, user: 'ana', sessionId: 'weather-1', events: session('weather-report') });
        console.log(`   accepted by Temporal: ${first.jobWorkflowId}`);
        const out1 = await (0, learning_1.waitForLearningJob)(worker.client, first.jobWorkflowId);
        const held = out1.revisions[0];
        console.log(`   job ${out1.status}: ${out1.reason}`);
        console.log(`   revision ${held.revisionId} (${held.action} "${held.name}") → ${held.status}: ${held.reasons.join('; ')}`);
        console.log(`   agents see: ${(await repo.list()).map((s) => s.name).join(', ') || 'nothing yet (a candidate never changes what agents load)'}`);
        step(2, 'An approver approves it by signal; the approval workflow publishes it');
        const view = await (0, approvals_1.showRevision)(store, held.revisionId);
        console.log(indent(view.diff.split('\n').slice(0, 14).join('\n') + '\n…'));
        const handle = worker.client.workflow.getHandle((0, governance_1.approvalWorkflowId)(held.revisionId));
        await handle.signal(workflows_1.decideSignal, { decision: 'approve', reviewer: 'maria', comment: 'useful, ship it' });
        const approved = await handle.result();
        console.log(`   ${approved.decision} by ${approved.reviewer}; revision is ${approved.finalStatus}`);
        await repo.refresh();
        const tool = new skill_load_tool_1.SkillLoadTool(repo);
        console.log(`   skill_load tool index: ${((await tool.definition()).function.description ?? "").split('\n').slice(1).join(' ')}`);
        console.log(indent((await tool.handle(JSON.stringify({ name: held.name }))).trim(), '   │ '));
        step(3, 'A later session: the user corrects the agent; the reviewer proposes an update');
        const second = await (0, learning_1.startLearningJob)(deps, { app, user: 'ana', sessionId: 'weather-1', events: session('weather-report-followup') });
        const out2 = await (0, learning_1.waitForLearningJob)(worker.client, second.jobWorkflowId);
        for (const r of out2.revisions)
            console.log(`   revision ${r.revisionId} (${r.action} "${r.name}") → ${r.status} (updates pass the create_only human gate)`);
        await repo.refresh();
        console.log(indent((await repo.load(held.name)).markdown.trim(), '   │ '));
        step(4, 'A bad candidate: a "cleanup" session that ran `rm -rf /` (and leaked a key, redacted before the reviewer saw it)');
        const third = await (0, learning_1.startLearningJob)(deps, { app, user: 'bo', sessionId: 'cleanup-1', events: session('dangerous-cleanup') });
        const out3 = await (0, learning_1.waitForLearningJob)(worker.client, third.jobWorkflowId);
        for (const r of out3.revisions) {
            console.log(`   revision ${r.revisionId} ("${r.name}") → ${r.status}`);
            const rev = (await (0, approvals_1.showRevision)(store, r.revisionId)).revision;
            for (const g of rev.gates)
                console.log(`     ${g.gate.padEnd(13)} ${!g.ran ? 'skipped' : g.passed ? 'passed' : 'FAILED'}: ${g.reasons.join('; ')}`);
        }
        console.log(`   agents see: ${(await repo.list()).map((s) => s.name).join(', ')}`);
        step(5, 'Rollback: the update turns out worse; restore the previous version');
        const rolled = await (0, rollback_1.rollbackSkill)({ client: worker.client, config: worker.config }, { scopeKey: first.scopeKey, skillId: held.skillId, reviewer: 'maria', comment: 'the update dropped the timeout pitfall' });
        console.log(`   ${rolled.restoredRevisionId} active again, ${rolled.archivedRevisionId} archived`);
        await repo.refresh();
        const restored = await repo.load(held.name);
        console.log(`   agents load revision ${restored.revisionId}${restored.revisionId === held.revisionId ? ' (the approved first version)' : ''}`);
        step(6, 'Offline optimization: a GEPA experiment improves the skill on a frozen dataset (simulated weather tasks with injected timeouts)');
        const evaluator = await (0, evaluator_1.createEvaluatorWorker)({ config: worker.config, taskQueue: `${worker.taskQueue}-evaluator` });
        const evaluatorRunning = evaluator.worker.run();
        try {
            const { dataset } = await (0, optimization_1.putDataset)(store, (0, core_1.makeWeatherDataset)({ seed: 7, feedback: 12, validation: 12, holdout: 12, criticalEvery: 4, id: 'weather-demo' }));
            console.log(`   dataset ${dataset.id}@${dataset.version}: ${dataset.feedback.length} feedback / ${dataset.validation.length} validation / ${dataset.holdout.length} holdout cases (frozen in S3)`);
            const seed = (await repo.load(held.name)).markdown;
            console.log(`   seed: the active "${held.name}" (${restored.revisionId}); evaluator worker on its own task queue`);
            const report = await (0, optimization_1.runExperiment)(deps, {
                seed: (0, core_1.parseSkillMarkdown)(seed),
                datasetRef: { id: dataset.id, version: dataset.version },
                scope,
                skillId: held.skillId,
                parentRevisionId: 'active',
                submit: true,
                options: { maxIterations: 10, randomSeed: 7, evaluatorTaskQueue: evaluator.taskQueue },
            });
            console.log(indent((0, format_experiment_1.reportText)(report)));
            const submitted = report.submission?.revisionId;
            if (submitted) {
                const view = await (0, approvals_1.showRevision)(store, submitted);
                console.log(`   the winner waits for a person: ${view.revision.status} (approve with: npx evolution approve ${submitted} --reviewer you)`);
                console.log(indent(view.diff.split('\n').filter((l) => /^[+-] |^[+-]\d|^[+-]- /.test(l)).slice(0, 12).join('\n')));
                console.log(`   agents still load ${(await repo.load(held.name)).revisionId} until it is approved`);
            }
        }
        finally {
            evaluator.worker.shutdown();
            await evaluatorRunning;
        }
        step(7, 'Governance counters and the audit trail');
        const m = await (0, metrics_1.scopeMetrics)(store, first.scopeKey);
        console.log(`   ${Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ')}`);
        for (const e of await store.listAudit(first.scopeKey, held.skillId))
            console.log(`   ${e.at}  ${e.action.padEnd(14)} ${e.revisionId} by ${e.actor}${e.reason ? `: ${e.reason}` : ''}`);
        console.log(`\n${bold('Done.')} Everything above is in S3 under scopes/${first.scopeKey}/ and in Temporal (${env.TEMPORAL_UI_URL}).`);
        console.log(`Try: npx evolution skills --app ${app}; npx evolution metrics --app ${app}; npx evolution infra down`);
        step(8, 'The approver console: review the pending GEPA revision, approve it, roll a skill back, in a browser');
        const web = await (0, local_access_1.startLocalConsole)(deps, { usersFile: (0, node_path_1.join)((0, paths_1.stateDir)(), 'console-users.json'), name: 'demo-approver', scopes: [first.scopeKey, `users/${app}/*`], port: Number(process.env.EVOLUTION_CONSOLE_PORT ?? 8080) });
        console.log(`   open ${bold(web.url)} and sign in with the token ${bold(web.token)}`);
        console.log(`   (user "demo-approver", approver of ${first.scopeKey}; its hash is in ${web.usersFile})`);
        if (process.stdout.isTTY || process.env.EVOLUTION_DEMO_KEEP_CONSOLE === '1') {
            console.log('   the console and the demo worker stay up until Ctrl-C');
            await new Promise((resolve) => process.once('SIGINT', resolve));
        }
        else {
            console.log('   (not a terminal: stopping now; set EVOLUTION_DEMO_KEEP_CONSOLE=1 to keep it up)');
        }
        await web.close();
    }
    finally {
        await worker.stop();
    }
}
main().then(() => process.exit(0), (e) => {
    console.error(`demo failed: ${e.stack ?? e}`);
    process.exit(1);
});
//# sourceMappingURL=demo.js.map