import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { markTracingActive } from './client-interceptors';

// OpenTelemetry is loaded only when tracing is on: import this module through tracing-env.ts.

export interface Tracing {
  spanProcessor: SpanProcessor;
  resource: Resource;
  shutdown(): Promise<void>;
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

/** Spans leave through OTLP/HTTP; the exporter reads the OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout) itself. */
export function startOtlpTracing(serviceName: string): Tracing {
  return startTracing(new BatchSpanProcessor(new OTLPTraceExporter()), serviceName);
}

/** What a worker adds for tracing: activity spans, and the sink through which workflow spans leave the sandbox. */
export function workerTracing(tracing: Tracing): { activity: ActivityInterceptorsFactory; sinks: InjectedSinks<never> } {
  return {
    activity: (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) } as unknown as InjectedSinks<never>,
  };
}
