package io.cipherd.server.keys;

/** The key-store contract, run on the in-memory fake that unit tests rely on. */
class InMemoryKeyStoreTest extends KeyStoreContractTest<InMemoryKeyStore> {
  @Override
  protected InMemoryKeyStore newStore() {
    return new InMemoryKeyStore();
  }
}
