import { describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { rootCauseOf } from '../../core/failure-message';
import { serviceUnavailable, unreachableServiceIn } from '../../core/errors';

// What `evolution job` shows for a failed job: the failing step's last failure, not
// "Activity task failed".
describe('root cause of a failed job', () => {
  const s3Down = serviceUnavailable('s3', 'http://127.0.0.1:8333', { detail: 'ECONNREFUSED' }).message;

  it('names the step, the innermost error, its type and the service it could not reach', () => {
    const last = ApplicationFailure.create({ message: s3Down, type: 'ServiceUnavailableError', cause: new Error('connect ECONNREFUSED 127.0.0.1:8333') });
    const timedOut = new TimeoutFailure('activity ScheduleToClose timeout', undefined, 'SCHEDULE_TO_CLOSE');
    Object.assign(timedOut, { cause: last });
    const activity = new ActivityFailure('Activity task failed', 'recordAndPublishRevision', '7', 'TIMEOUT', 'worker', timedOut);
    const failed = new WorkflowFailedError('Workflow execution failed', activity, 'TIMEOUT');
    expect(rootCauseOf(failed.cause)).toEqual({
      step: 'recordAndPublishRevision',
      type: 'ServiceUnavailableError',
      error: s3Down,
      service: 'S3',
      address: 'http://127.0.0.1:8333',
      retryState: 'TIMEOUT',
    });
  });

  it('a failure of the workflow itself has no step', () => {
    const own = ApplicationFailure.nonRetryable('invalid learning job input: segment is required', 'InvalidWorkflowInput');
    expect(rootCauseOf(own)).toEqual({ type: 'InvalidWorkflowInput', error: 'invalid learning job input: segment is required' });
  });
});

describe('the one wording of "cannot be reached"', () => {
  it('is the same for every service, and can be read back', () => {
    expect(serviceUnavailable('temporal', '127.0.0.1:7233', { detail: 'UNAVAILABLE' }).message).toBe(
      'Temporal at 127.0.0.1:7233 cannot be reached (UNAVAILABLE): run `npx evolution infra up` for the local services, or set TEMPORAL_ADDRESS to where it runs',
    );
    expect(unreachableServiceIn(`skill "x" is temporarily unavailable: ${serviceUnavailable('s3', 'http://h:1').message}`)).toEqual({ service: 'S3', address: 'http://h:1' });
    expect(unreachableServiceIn('conditional write failed')).toBeUndefined();
  });
});
