import { readFileSync } from 'node:fs';
import { positional } from '../args';
import type { Command } from '../command';
import { storeOnly } from '../services';

export const payloadCommands: Record<string, Command> = {
  payload: {
    arguments: [
      { name: 'ACTION', choices: ['put'] },
      { name: 'FILE', file: true },
    ],
    summary: 'validate session events (FILE: JSON array of chat messages), redact credentials, store them at payloads/{sha256}; prints the payloadRef',
    run: async (ctx) => {
      const { InputError } = await import('../../core/errors');
      const { storeSessionEvents } = await import('../../client/payloads');
      const action = positional(ctx.args, 0, 'put');
      if (action !== 'put') throw new InputError(`unknown payload action "${action}" (known: put)`);
      const file = positional(ctx.args, 1, 'FILE');
      let events: unknown;
      try {
        events = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new InputError(`cannot read session events from ${file}: ${(e as Error).message}`);
      }
      const stored = await storeSessionEvents(await storeOnly(ctx), events);
      ctx.out(stored, `payloads/${stored.payloadRef.sha256}  (${stored.payloadRef.bytes} bytes, ${stored.eventCount} events)\npayloadRef: ${JSON.stringify(stored.payloadRef)}`);
    },
  },
};
