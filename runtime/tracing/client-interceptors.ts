import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';

let active = false;

/** Called when this process registered a tracer provider (runtime/tracing/otel.ts). */
export function markTracingActive(): void {
  active = true;
}

/**
 * Client-side tracing: starting, signalling and updating workflows opens a span and passes
 * its context in the workflow headers, so the worker's spans join the caller's trace. Only
 * when this process traces (standard OTEL_* variables): otherwise nothing is added, not
 * even an empty header in history.
 */
export function clientInterceptors(): ClientInterceptors {
  return active ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : {};
}
