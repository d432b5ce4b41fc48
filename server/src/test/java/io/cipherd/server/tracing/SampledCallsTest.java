package io.cipherd.server.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.grpc.opentelemetry.InternalGrpcOpenTelemetry;
import io.grpc.protobuf.services.HealthStatusManager;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.OpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's OpenTelemetry module behind cipherd's decision: an unsampled call never reaches it
 * (the SDK is not even asked about it), a sampled one is traced as the module traces it.
 */
class SampledCallsTest {
  private static final int CALLS = 400;

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final AtomicInteger asked = new AtomicInteger();
  private final AtomicInteger recordingInHandler = new AtomicInteger();
  private OpenTelemetrySdk sdk;
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    sdk.close();
  }

  @Test
  void atRatioZero_noCallReachesTheModule() throws Exception {
    start(new CallSampler(0, false));

    call(CALLS);

    assertThat(asked).as("calls the SDK's sampler was asked about").hasValue(0);
    assertThat(spans.getFinishedSpanItems()).isEmpty();
    assertThat(recordingInHandler).hasValue(0);
  }

  @Test
  void atRatioOne_everyCallIsTraced_asTheModuleTracesIt() throws Exception {
    start(new CallSampler(1, false));

    call(CALLS);

    assertThat(spans.getFinishedSpanItems())
        .hasSize(CALLS)
        .allSatisfy(
            span -> {
              assertThat(span.getName()).isEqualTo("Recv.grpc.health.v1.Health.Check");
              assertThat(span.getEvents()).isNotEmpty();
            });
    assertThat(recordingInHandler).as("the span is current in the handler").hasValue(CALLS);
  }

  @Test
  void withoutMessageEvents_theModuleTracesEachCallButHearsOfNoMessage() throws Exception {
    start(new CallSampler(1, false), false);

    call(CALLS);

    assertThat(spans.getFinishedSpanItems())
        .hasSize(CALLS)
        .allSatisfy(
            span -> {
              assertThat(span.getName()).isEqualTo("Recv.grpc.health.v1.Health.Check");
              assertThat(span.hasEnded()).isTrue();
              assertThat(span.getEvents()).isEmpty();
              assertThat(span.getTotalRecordedEvents()).as("events built and dropped").isZero();
            });
    assertThat(recordingInHandler).as("the span is current in the handler").hasValue(CALLS);
  }

  @Test
  void theModulesMetricsAreLeftOut_evenWhenItHasSomeEnabled() throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    start(new CallSampler(1, false), true, metrics);

    call(CALLS);

    assertThat(spans.getFinishedSpanItems()).hasSize(CALLS);
    assertThat(metrics.collectAllMetrics()).as("grpc.server.* metrics recorded").isEmpty();
  }

  @Test
  void atAQuarter_aboutAQuarterOfTheCallsReachTheModule() throws Exception {
    start(new CallSampler(0.25, false));

    call(CALLS);

    // 100 expected, sd 8.7: ± 5 sd.
    assertThat(asked.get()).isBetween(56, 144);
    assertThat(spans.getFinishedSpanItems()).hasSize(asked.get());
  }

  private void start(CallSampler sampler) throws Exception {
    start(sampler, true);
  }

  private void start(CallSampler sampler, boolean messageEvents) throws Exception {
    start(sampler, messageEvents, null);
  }

  /** With {@code metrics}, the SDK has a meter provider and the module its default metrics. */
  private void start(CallSampler sampler, boolean messageEvents, InMemoryMetricReader metrics)
      throws Exception {
    Sampler counting =
        new Sampler() {
          private final Sampler inner = new CallSpanSampler(false);

          @Override
          public SamplingResult shouldSample(
              Context parentContext,
              String traceId,
              String name,
              SpanKind spanKind,
              Attributes attributes,
              List<LinkData> parentLinks) {
            asked.incrementAndGet();
            return inner.shouldSample(
                parentContext, traceId, name, spanKind, attributes, parentLinks);
          }

          @Override
          public String getDescription() {
            return "counting";
          }
        };
    OpenTelemetrySdkBuilder sdkBuilder =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .setSampler(counting)
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build());
    if (metrics != null) {
      sdkBuilder.setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build());
    }
    sdk = sdkBuilder.build();
    GrpcOpenTelemetry.Builder module = GrpcOpenTelemetry.newBuilder().sdk(sdk);
    if (metrics == null) {
      module.disableAllMetrics();
    }
    InternalGrpcOpenTelemetry.enableTracing(module, true);
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(new HealthStatusManager().getHealthService())
            .intercept(
                new ServerInterceptor() {
                  @Override
                  public <Q, A> ServerCall.Listener<Q> interceptCall(
                      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
                    if (Span.current().isRecording()) {
                      recordingInHandler.incrementAndGet();
                    }
                    return next.startCall(call, headers);
                  }
                });
    server = SampledCalls.install(module.build(), sampler, messageEvents, builder).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  private void call(int calls) {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    for (int i = 0; i < calls; i++) {
      health.check(HealthCheckRequest.getDefaultInstance());
    }
  }
}
