package io.cipherd.server.security;

/** The access policy's refusals, made as the authorizer makes them, for tests of their mapping. */
public final class TestDenials {
  private TestDenials() {}

  public static AccessDeniedException denied() {
    return new AccessDeniedException("billing", Operation.DECRYPT, "invoices");
  }

  public static UnauthenticatedException anonymous() {
    return new UnauthenticatedException(Operation.ENCRYPT, "invoices");
  }
}
