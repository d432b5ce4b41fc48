package io.cipherd.client;

import static io.cipherd.client.CipherdClient.call;

import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.EraseSubjectsItem;
import io.cipherd.api.v1.EraseSubjectsRequest;
import io.cipherd.api.v1.EraseSubjectsResponse;
import io.cipherd.api.v1.EraseSubjectsResult;
import io.cipherd.api.v1.GetSubjectRequest;
import io.cipherd.api.v1.GetSubjectResponse;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.grpc.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Data subjects' erasure (proto/README.md, "Subject-bound ciphertexts"): every call needs the
 * {@code erase} operation on the key, which {@code admin} does not imply. Got from {@link
 * CipherdClient#subjects()}.
 */
public final class Subjects {
  /** Subjects per EraseSubjects call; the server's default limit of batch items is 4096. */
  public static final int MAX_SUBJECTS_PER_CALL = 1000;

  private final SubjectServiceGrpc.SubjectServiceBlockingStub subjects;

  Subjects(SubjectServiceGrpc.SubjectServiceBlockingStub subjects) {
    this.subjects = subjects;
  }

  /**
   * Erases {@code subject} under {@code keyName}: every ciphertext sealed for it there then fails
   * with {@link SubjectErasedException}, everyone else's data untouched. Erasing an erased subject,
   * or one that never had a key, is no error: the outcome says which.
   */
  public SubjectErasure erase(String keyName, String subject) {
    EraseSubjectRequest request =
        EraseSubjectRequest.newBuilder().setKeyName(keyName).setSubject(subject).build();
    return erasure(call(() -> subjects.eraseSubject(request)).getErasure());
  }

  /**
   * Erases every item's subject, in calls of up to {@value #MAX_SUBJECTS_PER_CALL}: one result per
   * item, in order, an item's failure its own. A call that fails throws, after the calls before it
   * took effect (erasing again is harmless).
   */
  public List<ItemResult<SubjectErasure>> eraseAll(String keyName, List<SubjectItem> items) {
    List<ItemResult<SubjectErasure>> results = new ArrayList<>(items.size());
    for (int start = 0; start < items.size(); start += MAX_SUBJECTS_PER_CALL) {
      EraseSubjectsRequest.Builder request = EraseSubjectsRequest.newBuilder().setKeyName(keyName);
      for (SubjectItem item :
          items.subList(start, Math.min(start + MAX_SUBJECTS_PER_CALL, items.size()))) {
        request.addItems(
            EraseSubjectsItem.newBuilder()
                .setReference(item.reference())
                .setSubject(item.subject()));
      }
      EraseSubjectsResponse response = call(() -> subjects.eraseSubjects(request.build()));
      if (response.getResultsCount() != request.getItemsCount()) {
        throw Errors.of(
            Status.Code.INTERNAL,
            "",
            "the server answered "
                + response.getResultsCount()
                + " results for "
                + request.getItemsCount()
                + " subjects",
            Map.of());
      }
      for (EraseSubjectsResult result : response.getResultsList()) {
        results.add(
            result.hasError()
                ? ItemResult.failed(result.getReference(), Errors.fromItem(result.getError()))
                : ItemResult.ok(result.getReference(), erasure(result.getErasure()), 0));
      }
    }
    return results;
  }

  /** Whether {@code subject} has a key under {@code keyName}, and whether it was erased. */
  public SubjectStatus get(String keyName, String subject) {
    GetSubjectRequest request =
        GetSubjectRequest.newBuilder().setKeyName(keyName).setSubject(subject).build();
    GetSubjectResponse response = call(() -> subjects.getSubject(request));
    return new SubjectStatus(
        switch (response.getState()) {
          case SUBJECT_STATE_ACTIVE -> SubjectState.ACTIVE;
          case SUBJECT_STATE_ERASED -> SubjectState.ERASED;
          case SUBJECT_STATE_NO_KEY -> SubjectState.NO_KEY;
          default -> SubjectState.UNKNOWN;
        },
        response.hasCreateTime()
            ? Optional.of(KeyConversion.instant(response.getCreateTime()))
            : Optional.empty(),
        response.hasEraseTime()
            ? Optional.of(KeyConversion.instant(response.getEraseTime()))
            : Optional.empty(),
        response.getKeyVersion());
  }

  private static SubjectErasure erasure(io.cipherd.api.v1.SubjectErasure erasure) {
    Optional<ErasureReceipt> receipt = Optional.empty();
    if (erasure.hasReceipt()) {
      io.cipherd.api.v1.ErasureReceipt r = erasure.getReceipt();
      receipt =
          Optional.of(
              new ErasureReceipt(
                  r.getKeyName(),
                  r.getSubjectHash(),
                  KeyConversion.instant(r.getEraseTime()),
                  r.getTrail(),
                  r.getAuditSeq(),
                  r.getRecordHash()));
    }
    Optional<Instant> eraseTime =
        erasure.hasEraseTime()
            ? Optional.of(KeyConversion.instant(erasure.getEraseTime()))
            : Optional.empty();
    ErasureOutcome outcome =
        switch (erasure.getOutcome()) {
          case SUBJECT_ERASURE_OUTCOME_ERASED -> ErasureOutcome.ERASED;
          case SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED -> ErasureOutcome.ALREADY_ERASED;
          case SUBJECT_ERASURE_OUTCOME_NO_KEY -> ErasureOutcome.NO_KEY;
          default -> ErasureOutcome.UNKNOWN;
        };
    return new SubjectErasure(outcome, eraseTime, receipt);
  }
}
