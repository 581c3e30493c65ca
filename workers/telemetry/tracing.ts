import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { markTracingActive } from '../../client/tracing';

/** The workflow-side interceptors; must be in the workflow bundle (bundleWorkflowCode's workflowInterceptorModules). */
export const TRACING_WORKFLOW_INTERCEPTORS = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

export interface Tracing {
  spanProcessor: SpanProcessor;
  resource: Resource;
  shutdown(): Promise<void>;
}

/**
 * Tracing is on when an OTLP endpoint is configured the standard way
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or
 * OTEL_TRACES_EXPORTER=otlp) and OTEL_SDK_DISABLED is not true. The OTLP/HTTP exporter
 * reads the remaining OTEL_EXPORTER_OTLP_* variables (headers, timeout) itself.
 */
export function tracingEnabled(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_TRACES_EXPORTER === 'otlp');
}

/** Registers a global tracer provider (client interceptors use it) with this span processor. */
export function startTracing(spanProcessor: SpanProcessor, serviceName: string): Tracing {
  const resource = new Resource({ 'service.name': serviceName }).merge(envDetectorSync.detect());
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Spans nest through async calls (client → workflow headers, activity headers → activity
  // spans) only with a context manager.
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable() });
  markTracingActive();
  return { spanProcessor, resource, shutdown: () => provider.shutdown() };
}

export function startTracingFromEnv(env: Record<string, string | undefined>, serviceName: string): Tracing | undefined {
  if (!tracingEnabled(env)) return undefined;
  return startTracing(new BatchSpanProcessor(new OTLPTraceExporter()), env.OTEL_SERVICE_NAME ?? serviceName);
}

/** What a worker adds for tracing: activity spans, and the sink through which workflow spans leave the sandbox. */
export function workerTracing(tracing: Tracing): { activity: ActivityInterceptorsFactory; sinks: InjectedSinks<never> } {
  return {
    activity: (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) } as unknown as InjectedSinks<never>,
  };
}
