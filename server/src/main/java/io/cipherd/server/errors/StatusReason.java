package io.cipherd.server.errors;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;

/** The reason a closed call's status carries, as its audit record and its trace span show it. */
public final class StatusReason {
  private StatusReason() {}

  /** The ErrorInfo reason the API put in {@code trailers}, else the status code's name. */
  public static String of(Status status, Metadata trailers) {
    if (trailers != null) {
      for (Any detail : StatusProto.fromStatusAndTrailers(status, trailers).getDetailsList()) {
        if (detail.is(ErrorInfo.class)) {
          try {
            return detail.unpack(ErrorInfo.class).getReason();
          } catch (InvalidProtocolBufferException e) {
            break;
          }
        }
      }
    }
    return status.getCode().name();
  }
}
