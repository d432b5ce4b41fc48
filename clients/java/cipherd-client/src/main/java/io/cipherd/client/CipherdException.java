package io.cipherd.client;

import io.cipherd.api.v1.ErrorReason;
import io.grpc.Status;
import java.util.Map;
import java.util.Optional;

/**
 * Base of every error the client throws: the gRPC status {@link #code()}, the server's {@link
 * #reason()} (proto/README.md, "Errors"; {@link ErrorReason#ERROR_REASON_UNSPECIFIED} when gRPC
 * itself failed the call or the reason is one this client does not know yet, see {@link
 * #reasonName()}), and the ErrorInfo's {@link #metadata()}. The subclass says what happened: one
 * per status, refined by the reason ({@link Errors}); catch the one you branch on. The message is
 * for people and never decides anything; it never holds a plaintext, a key or a ciphertext.
 */
public class CipherdException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Status.Code code;
  private final String reasonName;
  private final Map<String, String> metadata;
  private volatile String lastReference;

  protected CipherdException(ErrorDetails details) {
    super(details.code() + ": " + details.message(), details.cause());
    this.code = details.code();
    this.reasonName = details.reason();
    this.metadata = Map.copyOf(details.metadata());
  }

  /** The gRPC status code of the call or item. */
  public Status.Code code() {
    return code;
  }

  /** The reason as the generated enum; UNSPECIFIED when there was none or it is unknown here. */
  public ErrorReason reason() {
    return Errors.reasonOf(reasonName);
  }

  /** The reason as sent ("" when there was none), including reasons newer than this client. */
  public String reasonName() {
    return reasonName;
  }

  /**
   * The ErrorInfo's metadata: the key, version or versions the error is about; empty for a batch or
   * stream item's error and when the server sent none.
   */
  public Map<String, String> metadata() {
    return metadata;
  }

  /**
   * When this error ended an item stream: the reference of the last item answered (or the call's
   * resumeAfter if none was). Pass it as resumeAfter to a new call with the same items.
   */
  public Optional<String> lastReference() {
    return Optional.ofNullable(lastReference);
  }

  void lastReference(String reference) {
    this.lastReference = reference;
  }
}
