import io.cipherd.client.CipherdClient;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A Java service's call through cipherd, traced: an OpenTelemetry SDK exporting over OTLP/gRPC to
 * the collector, a span "checkout" of the caller's, and under it one Encrypt through the Java
 * client built with openTelemetry(sdk). Prints "trace_id span_id" of the caller's span.
 *
 * <p>Usage: java -cp CLASSPATH TracedCall.java CIPHERD_TARGET KEY COLLECTOR_HOST:PORT SERVICE_NAME
 */
public final class TracedCall {
  public static void main(String[] args) throws Exception {
    String target = args[0];
    String key = args[1];
    ManagedChannel collector = ManagedChannelBuilder.forTarget(args[2]).usePlaintext().build();
    @SuppressWarnings("deprecation") // setChannel: the grpc-java sender, without OkHttp
    OtlpGrpcSpanExporter exporter = OtlpGrpcSpanExporter.builder().setChannel(collector).build();
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .setResource(
                        Resource.getDefault()
                            .merge(Resource.create(Attributes.builder().put("service.name", args[3]).build())))
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .build();
    Span checkout = sdk.getTracer("checkout").spanBuilder("checkout").startSpan();
    try (CipherdClient client = CipherdClient.builder(target).openTelemetry(sdk).build();
        Scope ignored = checkout.makeCurrent()) {
      client.encrypt(key, "a Java caller's plaintext".getBytes(StandardCharsets.UTF_8));
    } finally {
      checkout.end();
      sdk.shutdown().join(10, TimeUnit.SECONDS);
      collector.shutdown().awaitTermination(10, TimeUnit.SECONDS);
    }
    System.out.println(checkout.getSpanContext().getTraceId() + " " + checkout.getSpanContext().getSpanId());
  }
}
