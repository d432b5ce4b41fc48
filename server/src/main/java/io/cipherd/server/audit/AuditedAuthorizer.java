package io.cipherd.server.audit;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;

/**
 * An {@link Authorizer} that counts the items it refuses into the current call's {@link ItemTally}
 * (under version 0: a refused item never reaches a key version), since the engine reports to its
 * observer only the items it was allowed to work on.
 */
public final class AuditedAuthorizer implements Authorizer {
  private final Authorizer delegate;

  public AuditedAuthorizer(Authorizer delegate) {
    this.delegate = delegate;
  }

  @Override
  public void check(Operation operation, String keyName) {
    try {
      delegate.check(operation, keyName);
    } catch (RuntimeException e) {
      refused(keyName, e);
      throw e;
    }
  }

  @Override
  public boolean allows(Operation operation, String keyName) {
    return delegate.allows(operation, keyName);
  }

  @Override
  public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {
    try {
      delegate.checkReEncrypt(sourceKey, sourceType, targetKey);
    } catch (RuntimeException e) {
      refused(sourceKey, e);
      throw e;
    }
  }

  @Override
  public void checkReIndex(String sourceKey, KeyType sourceType) {
    try {
      delegate.checkReIndex(sourceKey, sourceType);
    } catch (RuntimeException e) {
      refused(sourceKey, e);
      throw e;
    }
  }

  private static void refused(String keyName, RuntimeException error) {
    ItemTally tally = AuditInterceptor.TALLY.get();
    if (tally != null) {
      String name = EnvelopeHeader.isValidKeyName(keyName) ? keyName : AuditedCall.INVALID_NAME;
      tally.add(name, ItemTally.NO_VERSION, AuditObserver.outcome(error));
    }
  }
}
