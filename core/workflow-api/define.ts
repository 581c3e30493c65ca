import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '@temporalio/client';

// The message definitions `defineSignal`/`defineQuery`/`defineUpdate` of @temporalio/workflow
// return, built without that package: callers (the client library) declare a workflow's
// messages from here, and the workflow registers its handlers on the same objects.

export function signal<Args extends unknown[] = [], Name extends string = string>(name: Name): SignalDefinition<Args, Name> {
  return { type: 'signal', name } as SignalDefinition<Args, Name>;
}

export function query<Ret, Args extends unknown[] = [], Name extends string = string>(name: Name): QueryDefinition<Ret, Args, Name> {
  return { type: 'query', name } as QueryDefinition<Ret, Args, Name>;
}

export function update<Ret, Args extends unknown[] = [], Name extends string = string>(name: Name): UpdateDefinition<Ret, Args, Name> {
  return { type: 'update', name } as UpdateDefinition<Ret, Args, Name>;
}
