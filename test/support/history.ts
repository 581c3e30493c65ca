import type { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;

/** The marker the SDK records for each completed local activity. */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

/**
 * The activities a workflow ran, in history order: a task-queue activity by its type name,
 * a local activity as `local:{type}` (read from the marker that recorded its result).
 */
export function activitySteps(history: History): string[] {
  return (history.events ?? []).flatMap((e) => {
    if (e.activityTaskScheduledEventAttributes) return [e.activityTaskScheduledEventAttributes.activityType!.name!];
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== LOCAL_ACTIVITY_MARKER) return [];
    const data = marker.details?.['data']?.payloads?.[0]?.data;
    if (!data) throw new Error('a local activity marker without data');
    const { activity_type } = JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string };
    return [`local:${activity_type}`];
  });
}

/** The results a workflow's local activities of one type recorded, in history order (JSON payloads, as without a codec). */
export function localActivityResults(history: History, activityType: string): unknown[] {
  return (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    if (marker?.markerName !== LOCAL_ACTIVITY_MARKER) return [];
    const data = marker.details?.['data']?.payloads?.[0]?.data;
    if (!data || (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string }).activity_type !== activityType) return [];
    const result = marker.details?.['result']?.payloads?.[0]?.data;
    return [result?.length ? JSON.parse(Buffer.from(result).toString('utf8')) : undefined];
  });
}

/** What the SDK writes into its own markers as json/plain (never user data): patch ids, and a local activity's seq, attempt, type and times. */
const SDK_MARKER_METADATA: Record<string, string> = { core_patch: 'patch-data', [LOCAL_ACTIVITY_MARKER]: 'data' };

/** The SDK's marker metadata, parsed (to check that it holds no user data). */
export function sdkMarkerMetadata(history: History): Record<string, unknown>[] {
  return (history.events ?? []).flatMap((e) => {
    const marker = e.markerRecordedEventAttributes;
    const detail = marker?.markerName ? SDK_MARKER_METADATA[marker.markerName] : undefined;
    const data = detail ? marker!.details?.[detail]?.payloads?.[0]?.data : undefined;
    return data ? [JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>] : [];
  });
}

/** The history without the SDK's marker metadata: every payload left is the data converter's (a local activity's result included). */
export function withoutSdkMarkerMetadata(history: History): History {
  return {
    ...history,
    events: (history.events ?? []).map((e) => {
      const marker = e.markerRecordedEventAttributes;
      const detail = marker?.markerName ? SDK_MARKER_METADATA[marker.markerName] : undefined;
      if (!marker || !detail) return e;
      const { [detail]: _, ...details } = marker.details ?? {};
      return { ...e, markerRecordedEventAttributes: { ...marker, details } };
    }),
  };
}

/** The results a workflow's task-queue activities of one type returned, in history order (JSON payloads, as without a codec). */
export function activityResults(history: History, activityType: string): unknown[] {
  const events = history.events ?? [];
  const scheduled = new Set(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType).map((e) => String(e.eventId)));
  return events.flatMap((e) => {
    const done = e.activityTaskCompletedEventAttributes;
    if (!done || !scheduled.has(String(done.scheduledEventId))) return [];
    const data = done.result?.payloads?.[0]?.data;
    return [data?.length ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined];
  });
}

/** The inputs a workflow's task-queue activities of one type were scheduled with, in history order (first argument, JSON payloads, as without a codec). */
export function activityInputs(history: History, activityType: string): unknown[] {
  return (history.events ?? []).flatMap((e) => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== activityType) return [];
    const data = scheduled.input?.payloads?.[0]?.data;
    return [data?.length ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined];
  });
}

/** The workflow types and ids of the child workflows a workflow started, in history order. */
export function childWorkflowIds(history: History): string[] {
  return (history.events ?? []).flatMap((e) => (e.startChildWorkflowExecutionInitiatedEventAttributes ? [e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId!] : []));
}
