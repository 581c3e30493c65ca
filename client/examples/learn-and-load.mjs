// A platform hands a finished agent session to Skill Evolution and waits for its learning job;
// an agent then loads the published skills through the skill_load tool.
// Run: node learn-and-load.mjs session.json my-app   (configured like the workers: TEMPORAL_ADDRESS, S3_*, …;
// against a deployment that encrypts payloads, EVOLUTION_PAYLOAD_KEYS as its workers have it)
import { readFileSync } from 'node:fs';
import {
  Client,
  CLIENT_CHANNEL_ARGS,
  Connection,
  createDataConverter,
  createSkillStore,
  parseConfig,
  SkillLoadTool,
  SkillRepository,
  startLearningJob,
  waitForLearningJob,
} from '@skill-evolution/client';

const [sessionFile, app = 'my-app'] = process.argv.slice(2);
const config = parseConfig(process.env);
const connection = await Connection.connect({ address: config.temporal.address, channelArgs: CLIENT_CHANNEL_ARGS });
const keys = process.env.EVOLUTION_PAYLOAD_KEYS;
const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter: keys ? createDataConverter({ keys }) : undefined });
const store = createSkillStore(config.s3);

const events = JSON.parse(readFileSync(sessionFile, 'utf8'));
const job = await startLearningJob({ client, store, config }, { app, user: 'u1', sessionId: 's1', events });
const outcome = await waitForLearningJob({ client, store }, job.jobWorkflowId);

const repository = new SkillRepository(store, { mode: 'app', app });
await repository.refresh();
const skillLoad = new SkillLoadTool(repository);
const tool = await skillLoad.definition(); // for `tools` in openai.chat.completions.create
const [first] = await repository.list();
const loaded = first ? await skillLoad.handle(JSON.stringify({ name: first.name })) : '';
console.log(JSON.stringify({ job, status: outcome.status, revisions: outcome.revisions, tool, loaded }));
await connection.close();
