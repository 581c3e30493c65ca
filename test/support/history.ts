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
