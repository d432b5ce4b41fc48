package io.cipherd.client;

import io.grpc.Status;
import java.util.Map;

/**
 * What an exception is made of: status code, reason as sent, message, ErrorInfo metadata, cause.
 */
record ErrorDetails(
    Status.Code code,
    String reason,
    String message,
    Map<String, String> metadata,
    Throwable cause) {}
