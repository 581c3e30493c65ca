/**
 * CLI: tsx infra/model-server/main.ts [--host 127.0.0.1] [--port 8787] [--fault MODE]
 *      [--fault-rate N] [--fault-delay-ms MS]
 * Prints `model-server listening on http://HOST:PORT` once ready (the real port when --port 0).
 */
import { parseArgs } from 'node:util';
import { FAULT_MODES, type FaultMode, type RunFault } from './faults';
import { startModelServer } from './server';
import { ANSWER_STYLES, type AnswerStyle } from './answer-style';
import { endQuietlyOnBrokenPipe, exitWhenFlushed } from '../../runtime/exit';

const USAGE = `usage: tsx infra/model-server/main.ts [--host HOST] [--port PORT] [--style ${ANSWER_STYLES.join('|')}] [--fault ${FAULT_MODES.join('|')}] [--fault-rate N] [--fault-delay-ms MS]

A deterministic stand-in for an OpenAI-compatible model (skill reviewer and reflector).
  --host            bind address (default 127.0.0.1)
  --port            port, 0 = any free port (default 8787)
  --style           answer like a strict endpoint (default) or a non-strict local model (refuses json_schema,
                    fences, prose, trailing commas, missing optional keys; plain: refuses json_object too).
                    A model name with "nonstrict" or "plain" in it picks that style per request.
  --fault           inject this fault into every chat request (or a fraction, see --fault-rate)
  --fault-rate      fraction in (0,1] of requests that get --fault, spread deterministically (default 1)
  --fault-delay-ms  delay for --fault slow (default 90000)`;

class UsageFailure extends Error {}

function fail(message: string): never {
  throw new UsageFailure(`${message}\n${USAGE}`);
}

function parseNumber(flag: string, raw: string | undefined, check: (n: number) => boolean): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) fail(`invalid ${flag}: ${raw}`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '8787' },
        style: { type: 'string', default: 'strict' },
        fault: { type: 'string' },
        'fault-rate': { type: 'string' },
        'fault-delay-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  const port = parseNumber('--port', values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535)!;
  const rate = parseNumber('--fault-rate', values['fault-rate'], (n) => n > 0 && n <= 1);
  const delayMs = parseNumber('--fault-delay-ms', values['fault-delay-ms'], (n) => Number.isInteger(n) && n >= 0);
  let defaultFault: RunFault | undefined;
  if (values.fault !== undefined) {
    if (!(FAULT_MODES as readonly string[]).includes(values.fault)) fail(`unknown --fault mode: ${values.fault}`);
    defaultFault = { mode: values.fault as FaultMode, rate, delayMs };
  } else if (rate !== undefined || delayMs !== undefined) {
    fail('--fault-rate and --fault-delay-ms need --fault');
  }

  if (!(ANSWER_STYLES as readonly string[]).includes(values.style!)) fail(`unknown --style: ${values.style}`);
  const server = await startModelServer({ host: values.host, port, defaultFault, style: values.style as AnswerStyle });
  process.stdout.write(`model-server listening on ${server.url}\n`);

  const shutdown = (signal: string) => {
    process.stderr.write(`model-server: ${signal}, shutting down\n`);
    server.close().then(
      () => exitWhenFlushed(0),
      () => exitWhenFlushed(1),
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

endQuietlyOnBrokenPipe();
main().catch((e: unknown) => {
  process.stderr.write(`model-server: ${e instanceof UsageFailure ? '' : 'failed to start: '}${(e as Error)?.message ?? String(e)}\n`);
  return exitWhenFlushed(e instanceof UsageFailure ? 2 : 1);
});
