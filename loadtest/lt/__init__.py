"""The cipherd load-test runner: one module per job (see loadtest/README.md)."""
