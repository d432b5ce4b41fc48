"""Generated from proto/cipherd/v1 by proto/scripts/generate; do not edit."""
