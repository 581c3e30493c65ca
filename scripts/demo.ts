/**
 * `npm run demo`: the main job end to end on local services (Temporal dev server,
 * SeaweedFS S3, the deterministic local model server standing in for an LLM).
 */
import { createSkillStore } from '../storage';
import { showRevision } from '../client/approvals';
import { loadConfig } from '../runtime/config';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { rollbackSkill } from '../client/rollback';
import { SkillRepository } from '../client/skill-repository';
import { SkillLoadTool } from '../client/skill-load-tool';
import { scopeMetrics } from '../client/metrics';
import { approvalWorkflowId } from '../core/workflow-ids';
import { parseSkillMarkdown } from '../core';
import { makeWeatherDataset } from '../workers/evaluator/simulated-weather';
import { putDataset, runExperiment } from '../client/optimization';
import { reportText } from '../cli/format-experiment';
import { createEvaluatorWorker } from '../workers/evaluator';
import { infraEnv, infraUp } from '../infra';
import { decideSignal, approvalWorkflow } from '../workflows';
import { startMainWorker } from '../workers/in-process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, stateDir } from '../infra/paths';
import { startLocalConsole } from '../console/local-access';
import { runToExit } from '../runtime/exit';

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (n: number, title: string) => console.log(`\n${bold(`── ${n}. ${title}`)}`);
const indent = (text: string, by = '   ') =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
const session = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'sessions', `${name}.json`), 'utf8'));

async function main() {
  console.log(bold('Skill Evolution on Temporal — demo'));
  const state = await infraUp({ log: (l) => console.log(`   [infra] ${l}`) });
  const env = infraEnv(state);
  const base = loadConfig({ ...process.env, ...env });
  const config = { ...base, governance: { ...base.governance, humanGate: 'create_only' as const, shadowMode: false, approvalTimeoutMs: 72 * 3600_000 } };
  console.log(`   Temporal ${env.TEMPORAL_ADDRESS} (UI ${env.TEMPORAL_UI_URL}), S3 ${env.S3_ENDPOINT}, model server ${env.OPENAI_BASE_URL} (a deterministic stand-in for an LLM)`);

  const worker = await startMainWorker(config, { taskQueue: `demo-${Date.now()}` });
  const store = createSkillStore(config.s3);
  const deps = { client: worker.client, store, config: worker.config };
  const app = `demo-${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}`;
  const scope = { mode: 'app' as const, app };
  const repo = new SkillRepository(store, scope);
  try {
    step(1, `A finished session: a multi-city weather report with a timeout and a retry (app "${app}")`);
    const first = await startLearningJob(deps, { app, user: 'ana', sessionId: 'weather-1', events: session('weather-report') });
    console.log(`   accepted by Temporal: ${first.jobWorkflowId}`);
    const out1 = await waitForLearningJob(worker, first.jobWorkflowId);
    const held = out1.revisions[0]!;
    console.log(`   job ${out1.status}: ${out1.reason}`);
    console.log(`   revision ${held.revisionId} (${held.action} "${held.name}") → ${held.status}: ${held.reasons.join('; ')}`);
    console.log(`   agents see: ${(await repo.list()).map((s) => s.name).join(', ') || 'nothing yet (a candidate never changes what agents load)'}`);

    step(2, 'An approver approves it by signal; the approval workflow publishes it');
    const view = await showRevision(store, held.revisionId);
    console.log(indent(view.diff.split('\n').slice(0, 14).join('\n') + '\n…'));
    const handle = worker.client.workflow.getHandle<typeof approvalWorkflow>(approvalWorkflowId(held.revisionId));
    await handle.signal(decideSignal, { decision: 'approve', reviewer: 'maria', comment: 'useful, ship it' });
    const approved = await handle.result();
    console.log(`   ${approved.decision} by ${approved.reviewer}; revision is ${approved.finalStatus}`);
    await repo.refresh();
    const tool = new SkillLoadTool(repo);
    console.log(`   skill_load tool index: ${((await tool.definition()).function.description ?? '').split('\n').slice(1).join(' ')}`);
    console.log(indent((await tool.handle(JSON.stringify({ name: held.name }))).trim(), '   │ '));

    step(3, 'A later session: the user corrects the agent; the reviewer proposes an update');
    const second = await startLearningJob(deps, { app, user: 'ana', sessionId: 'weather-1', events: session('weather-report-followup') });
    const out2 = await waitForLearningJob(worker, second.jobWorkflowId);
    for (const r of out2.revisions) console.log(`   revision ${r.revisionId} (${r.action} "${r.name}") → ${r.status} (updates pass the create_only human gate)`);
    await repo.refresh();
    console.log(indent((await repo.load(held.name)).markdown.trim(), '   │ '));

    step(4, 'A bad candidate: a "cleanup" session that ran `rm -rf /` (and leaked a key, redacted before the reviewer saw it)');
    const third = await startLearningJob(deps, { app, user: 'bo', sessionId: 'cleanup-1', events: session('dangerous-cleanup') });
    const out3 = await waitForLearningJob(worker, third.jobWorkflowId);
    for (const r of out3.revisions) {
      console.log(`   revision ${r.revisionId} ("${r.name}") → ${r.status}`);
      const rev = (await showRevision(store, r.revisionId)).revision;
      for (const g of rev.gates) console.log(`     ${g.gate.padEnd(13)} ${!g.ran ? 'skipped' : g.passed ? 'passed' : 'FAILED'}: ${g.reasons.join('; ')}`);
    }
    console.log(`   agents see: ${(await repo.list()).map((s) => s.name).join(', ')}`);

    step(5, 'Rollback: the update turns out worse; restore the previous version');
    const rolled = await rollbackSkill(
      { client: worker.client, config: worker.config },
      { scopeKey: first.scopeKey, skillId: held.skillId, reviewer: 'maria', comment: 'the update dropped the timeout pitfall' },
    );
    console.log(`   ${rolled.restoredRevisionId} active again, ${rolled.archivedRevisionId} archived`);
    await repo.refresh();
    const restored = await repo.load(held.name);
    console.log(`   agents load revision ${restored.revisionId}${restored.revisionId === held.revisionId ? ' (the approved first version)' : ''}`);

    step(6, 'Offline optimization: a GEPA experiment improves the skill on a frozen dataset (simulated weather tasks with injected timeouts)');
    const evaluator = await createEvaluatorWorker({ config: worker.config, taskQueue: `${worker.taskQueue}-evaluator` });
    const evaluatorRunning = evaluator.worker.run();
    try {
      const { dataset } = await putDataset(store, makeWeatherDataset({ seed: 7, feedback: 12, validation: 12, holdout: 12, criticalEvery: 4, id: 'weather-demo' }));
      console.log(
        `   dataset ${dataset.id}@${dataset.version}: ${dataset.feedback.length} feedback / ${dataset.validation.length} validation / ${dataset.holdout.length} holdout cases (frozen in S3)`,
      );
      const seed = (await repo.load(held.name)).markdown;
      console.log(`   seed: the active "${held.name}" (${restored.revisionId}); evaluator worker on its own task queue`);
      const report = await runExperiment(deps, {
        seed: parseSkillMarkdown(seed),
        datasetRef: { id: dataset.id, version: dataset.version },
        scope,
        skillId: held.skillId,
        parentRevisionId: 'active',
        submit: true,
        options: { maxIterations: 10, randomSeed: 7, evaluatorTaskQueue: evaluator.taskQueue },
      });
      console.log(indent(reportText(report)));
      const submitted = report.submission?.revisionId;
      if (submitted) {
        const view = await showRevision(store, submitted);
        console.log(`   the winner waits for a person: ${view.revision.status} (approve with: npx evolution approve ${submitted} --reviewer you)`);
        console.log(
          indent(
            view.diff
              .split('\n')
              .filter((l) => /^[+-] |^[+-]\d|^[+-]- /.test(l))
              .slice(0, 12)
              .join('\n'),
          ),
        );
        console.log(`   agents still load ${(await repo.load(held.name)).revisionId} until it is approved`);
      }
    } finally {
      evaluator.worker.shutdown();
      await evaluatorRunning;
    }

    step(7, 'Governance counters and the audit trail');
    const m = await scopeMetrics(store, first.scopeKey);
    console.log(
      `   ${Object.entries(m)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}`,
    );
    for (const e of await store.listAudit(first.scopeKey, held.skillId))
      console.log(`   ${e.at}  ${e.action.padEnd(14)} ${e.revisionId} by ${e.actor}${e.reason ? `: ${e.reason}` : ''}`);

    console.log(
      `\n${bold('Done.')} Everything above is in S3 (the scope's objects under scopes/${first.scopeKey}/, the jobs' outcomes under jobs/) and in Temporal (${env.TEMPORAL_UI_URL}).`,
    );
    console.log(`Try: npx evolution skills --app ${app}; npx evolution metrics --app ${app}; npx evolution infra down`);

    step(8, 'The approver console: review the pending GEPA revision, approve it, roll a skill back, in a browser');
    const web = await startLocalConsole(deps, {
      usersFile: join(stateDir(), 'console-users.json'),
      name: 'demo-approver',
      scopes: [first.scopeKey, `users/${app}/*`],
      port: Number(process.env.EVOLUTION_CONSOLE_PORT ?? 8080),
    });
    console.log(`   open ${bold(web.url)} and sign in with the token ${bold(web.token)}`);
    console.log(`   (user "demo-approver", approver of ${first.scopeKey}; its hash is in ${web.usersFile})`);
    if (process.stdout.isTTY || process.env.EVOLUTION_DEMO_KEEP_CONSOLE === '1') {
      console.log('   the console and the demo worker stay up until Ctrl-C');
      await new Promise<void>((resolve) => process.once('SIGINT', resolve));
    } else {
      console.log('   (not a terminal: stopping now; set EVOLUTION_DEMO_KEEP_CONSOLE=1 to keep it up)');
    }
    await web.close();
  } finally {
    await worker.stop();
  }
}

runToExit(main, (e) => `demo failed: ${(e as Error).stack ?? e}`);
