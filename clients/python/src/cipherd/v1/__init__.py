"""Generated from proto/cipherd/v1 by clients/python/scripts/generate; do not edit."""
