package io.cipherd.server.security;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import java.util.function.Supplier;

/**
 * Enforces an {@link AccessPolicy} for the caller in the current gRPC context, counting refusals.
 * Each check reads the policy in force, so a reloaded file applies to the next call and to the next
 * item of a stream already open; there the caller's credential is checked again too ({@link
 * CallerCredential}), so a replaced token stops working on the streams it opened. A key name that
 * is not valid is refused as such before any pattern sees it, so no rule is matched against (and no
 * message repeats) an arbitrary string.
 */
public final class PolicyAuthorizer implements Authorizer {
  private final Supplier<AccessPolicy> policies;
  private final AccessDenials denials;

  public PolicyAuthorizer(Supplier<AccessPolicy> policies, AccessDenials denials) {
    this.policies = policies;
    this.denials = denials;
  }

  @Override
  public void check(Operation operation, String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    String caller = caller(operation, keyName);
    if (!policies.get().allows(caller, operation, keyName)) {
      throw denied(caller, operation, keyName, "");
    }
  }

  @Override
  public boolean allows(Operation operation, String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    String caller = CallerIdentity.current();
    CallerCredential credential = CallerCredential.current();
    return caller != null
        && (credential == null || credential.holds())
        && policies.get().allows(caller, operation, keyName);
  }

  @Override
  public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {
    EnvelopeHeader.checkKeyName(sourceKey);
    EnvelopeHeader.checkKeyName(targetKey);
    if (!sourceKey.equals(targetKey)) {
      check(Operation.DECRYPT, sourceKey);
      check(Operation.ENCRYPT, targetKey);
      return;
    }
    String caller = caller(Operation.REENCRYPT, sourceKey);
    AccessPolicy policy = policies.get();
    boolean decrypt = policy.allows(caller, Operation.DECRYPT, sourceKey);
    boolean rewrap =
        policy.allows(caller, Operation.REENCRYPT, sourceKey)
            || (decrypt && policy.allows(caller, Operation.ENCRYPT, sourceKey));
    requireDecryptIfUnauthenticated(
        caller,
        sourceKey,
        sourceType,
        decrypt,
        "rewrapping them needs decrypt as well as reencrypt");
    if (!rewrap) {
      throw denied(caller, Operation.REENCRYPT, sourceKey, "");
    }
  }

  @Override
  public void checkReIndex(String sourceKey, KeyType sourceType) {
    EnvelopeHeader.checkKeyName(sourceKey);
    String caller = caller(Operation.REINDEX, sourceKey);
    AccessPolicy policy = policies.get();
    requireDecryptIfUnauthenticated(
        caller,
        sourceKey,
        sourceType,
        policy.allows(caller, Operation.DECRYPT, sourceKey),
        "re-indexing them needs decrypt as well as reindex");
    if (!policy.allows(caller, Operation.REINDEX, sourceKey)) {
      throw denied(caller, Operation.REINDEX, sourceKey, "");
    }
  }

  /**
   * Refuses {@code caller} that may not decrypt ({@code mayDecrypt}) a rewrap or re-index of a
   * source that is not authenticated ({@code needs} says which). A legacy ciphertext counts as
   * unauthenticated: most legacy ciphers are.
   */
  private void requireDecryptIfUnauthenticated(
      String caller, String sourceKey, KeyType sourceType, boolean mayDecrypt, String needs) {
    // FF1 authenticates nothing, but nothing about its rewrap depends on the plaintext either:
    // every value of the format decrypts, and a refusal (shape, version) reads the ciphertext and
    // the key only, so a rewrap tells a caller nothing decrypt would.
    boolean noOracle =
        (sourceType.mode() != null && sourceType.mode().isAead()) || sourceType == KeyType.FF1;
    if (!noOracle && !mayDecrypt) {
      throw denied(
          caller,
          Operation.DECRYPT,
          sourceKey,
          ": " + sourceType.typeName() + " ciphertexts are not authenticated, so " + needs);
    }
  }

  private String caller(Operation operation, String keyName) {
    String caller = CallerIdentity.current();
    if (caller == null) {
      denials.recordAnonymous();
      throw new UnauthenticatedException(operation, keyName);
    }
    CallerCredential credential = CallerCredential.current();
    if (credential != null && !credential.holds()) {
      denials.recordAnonymous();
      throw new UnauthenticatedException(operation, keyName, /* revoked= */ true);
    }
    return caller;
  }

  private AccessDeniedException denied(
      String caller, Operation operation, String keyName, String why) {
    denials.recordDenied();
    return new AccessDeniedException(caller, operation, keyName, why);
  }
}
