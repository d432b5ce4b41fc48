package io.cipherd.server.api;

import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.EraseSubjectResponse;
import io.cipherd.api.v1.EraseSubjectsItem;
import io.cipherd.api.v1.EraseSubjectsRequest;
import io.cipherd.api.v1.EraseSubjectsResponse;
import io.cipherd.api.v1.EraseSubjectsResult;
import io.cipherd.api.v1.ErasureReceipt;
import io.cipherd.api.v1.GetSubjectRequest;
import io.cipherd.api.v1.GetSubjectResponse;
import io.cipherd.api.v1.SubjectErasure;
import io.cipherd.api.v1.SubjectErasureOutcome;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.api.v1.SubjectState;
import io.cipherd.server.audit.AuditReceipt;
import io.cipherd.server.audit.ErasureAudit;
import io.cipherd.server.engine.SubjectAdmin;
import io.cipherd.server.subjectkeys.SubjectHasher;
import io.cipherd.server.subjects.SubjectErasure.Outcome;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The gRPC face of {@link SubjectAdmin}: erasures with their receipts (each erasure's audit record
 * written before the call answers), and subjects' state. Every call needs {@code erase} on the key,
 * checked before any subject is looked up.
 */
final class SubjectServiceImpl extends SubjectServiceGrpc.SubjectServiceImplBase {
  private final SubjectAdmin subjects;
  private final Supplier<ErasureAudit> audit;
  private final CallDispatcher dispatcher;
  private final RequestLimits limits;

  SubjectServiceImpl(
      SubjectAdmin subjects,
      Supplier<ErasureAudit> audit,
      CallDispatcher dispatcher,
      RequestLimits limits) {
    this.subjects = subjects;
    this.audit = audit;
    this.dispatcher = dispatcher;
    this.limits = limits;
  }

  @Override
  public void eraseSubject(
      EraseSubjectRequest request, StreamObserver<EraseSubjectResponse> observer) {
    dispatcher.unary(
        false,
        observer,
        () -> {
          subjects.checkErase(request.getKeyName());
          byte[] id = SubjectHasher.utf8("subject", request.getSubject());
          List<SubjectErasure> erased =
              erase(request.getKeyName(), List.of(id), List.of(subjects.hash(id)));
          return EraseSubjectResponse.newBuilder().setErasure(erased.get(0)).build();
        });
  }

  @Override
  public void eraseSubjects(
      EraseSubjectsRequest request, StreamObserver<EraseSubjectsResponse> observer) {
    try {
      limits.checkBatch(request.getItemsCount());
    } catch (RuntimeException e) {
      CallDispatcher.closeWithError(observer, e);
      return;
    }
    dispatcher.unary(
        false,
        observer,
        () -> {
          subjects.checkErase(request.getKeyName());
          int count = request.getItemsCount();
          Map<Integer, RuntimeException> invalid = new HashMap<>();
          List<byte[]> ids = new ArrayList<>();
          List<SubjectHash> hashes = new ArrayList<>();
          List<Integer> positions = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            EraseSubjectsItem item = request.getItems(i);
            try {
              byte[] id = SubjectHasher.utf8("subject", item.getSubject());
              hashes.add(subjects.hash(id));
              ids.add(id);
              positions.add(i);
            } catch (RuntimeException e) {
              invalid.put(i, e);
            }
          }
          List<SubjectErasure> erased =
              hashes.isEmpty() ? List.of() : erase(request.getKeyName(), ids, hashes);
          EraseSubjectsResult[] results = new EraseSubjectsResult[count];
          for (int j = 0; j < positions.size(); j++) {
            int i = positions.get(j);
            results[i] =
                EraseSubjectsResult.newBuilder()
                    .setReference(request.getItems(i).getReference())
                    .setErasure(erased.get(j))
                    .build();
          }
          invalid.forEach(
              (i, e) ->
                  results[i] =
                      EraseSubjectsResult.newBuilder()
                          .setReference(request.getItems(i).getReference())
                          .setError(StatusMapper.toItemError(e))
                          .build());
          return EraseSubjectsResponse.newBuilder().addAllResults(List.of(results)).build();
        });
  }

  /**
   * Erases {@code hashes} (of {@code ids}, their UTF-8 as {@link SubjectHasher#utf8} checked it) in
   * one store call, then writes an audit record for each subject this call erased and waits for
   * them: their receipts are in the answer.
   */
  private List<SubjectErasure> erase(String keyName, List<byte[]> ids, List<SubjectHash> hashes) {
    var results = subjects.erase(keyName, hashes);
    ErasureAudit erasures = audit.get();
    List<Integer> erasedAt = new ArrayList<>();
    List<String> auditHashes = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).outcome() == Outcome.ERASED) {
        String auditHash = erasures.hashSubject(ids.get(i));
        if (auditHash != null) {
          erasedAt.add(i);
          auditHashes.add(auditHash);
        }
      }
    }
    Map<Integer, ErasureReceipt> receipts = new HashMap<>();
    if (!auditHashes.isEmpty()) {
      List<AuditReceipt> written =
          erasures.recordErasures(results.get(erasedAt.get(0)).erased(), keyName, auditHashes);
      for (int j = 0; j < erasedAt.size(); j++) {
        var result = results.get(erasedAt.get(j));
        AuditReceipt receipt = written.get(j);
        receipts.put(
            erasedAt.get(j),
            ErasureReceipt.newBuilder()
                .setKeyName(keyName)
                .setSubjectHash(auditHashes.get(j))
                .setEraseTime(KeyProtos.timestamp(result.erased()))
                .setTrail(receipt.trail())
                .setAuditSeq(receipt.seq())
                .setRecordHash(receipt.recordHash())
                .build());
      }
    }
    List<SubjectErasure> out = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      var result = results.get(i);
      SubjectErasure.Builder erasure =
          SubjectErasure.newBuilder().setOutcome(outcome(result.outcome()));
      if (result.erased() != null) {
        erasure.setEraseTime(KeyProtos.timestamp(result.erased()));
      }
      ErasureReceipt receipt = receipts.get(i);
      if (receipt != null) {
        erasure.setReceipt(receipt);
      }
      out.add(erasure.build());
    }
    return out;
  }

  private static SubjectErasureOutcome outcome(Outcome outcome) {
    return switch (outcome) {
      case ERASED -> SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ERASED;
      case ALREADY_ERASED -> SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_ALREADY_ERASED;
      case NOT_FOUND -> SubjectErasureOutcome.SUBJECT_ERASURE_OUTCOME_NO_KEY;
    };
  }

  @Override
  public void getSubject(GetSubjectRequest request, StreamObserver<GetSubjectResponse> observer) {
    dispatcher.unary(
        false,
        observer,
        () -> {
          subjects.checkErase(request.getKeyName());
          Optional<SubjectRecord> found =
              subjects.find(request.getKeyName(), subjects.hash("subject", request.getSubject()));
          GetSubjectResponse.Builder response = GetSubjectResponse.newBuilder();
          if (found.isEmpty()) {
            return response.setState(SubjectState.SUBJECT_STATE_NO_KEY).build();
          }
          SubjectRecord row = found.get();
          response.setCreateTime(KeyProtos.timestamp(row.created()));
          if (row.isErased()) {
            return response
                .setState(SubjectState.SUBJECT_STATE_ERASED)
                .setEraseTime(KeyProtos.timestamp(row.erased()))
                .build();
          }
          return response
              .setState(SubjectState.SUBJECT_STATE_ACTIVE)
              .setKeyVersion(row.wrapVersion())
              .build();
        });
  }
}
