"""The processes the runner starts and stops: cipherd, the grpc-java echo ceiling and Vault, on 127.0.0.1."""
