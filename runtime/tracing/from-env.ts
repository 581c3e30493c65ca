import type { Tracing } from './otel';

/** The workflow-side interceptors; must be in the workflow bundle (bundleWorkflowCode's workflowInterceptorModules). */
export const TRACING_WORKFLOW_INTERCEPTORS = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/**
 * Tracing is on when an OTLP endpoint is configured the standard way
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or
 * OTEL_TRACES_EXPORTER=otlp) and OTEL_SDK_DISABLED is not true.
 */
export function tracingEnabled(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_TRACES_EXPORTER === 'otlp');
}

/** Starts tracing when the environment asks for it; OpenTelemetry is not even loaded otherwise (it costs start-up time). */
export async function startTracingFromEnv(env: Record<string, string | undefined>, serviceName: string): Promise<Tracing | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const { startOtlpTracing } = await import('./otel');
  return startOtlpTracing(env.OTEL_SERVICE_NAME ?? serviceName);
}
