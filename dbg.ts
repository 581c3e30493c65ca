import { startWorkerProcess } from './test/support/worker-process';
import { freeLocalPort } from './workers/telemetry/runtime';
(async () => {
  const port = await freeLocalPort();
  const w = startWorkerProcess({ EVOLUTION_TASK_QUEUE: 'dbg-tq', EVOLUTION_METRICS_PORT: String(port), EVOLUTION_LOG_LEVEL: 'INFO' });
  await w.ready;
  const t = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  console.log(
    t
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .slice(0, 15)
      .join('\n'),
  );
  await w.kill('SIGTERM');
  console.log('exit', w.child.exitCode, w.child.signalCode);
  console.log(w.output().slice(-1500));
  process.exit(0);
})();
