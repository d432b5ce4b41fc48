package io.cipherd.server.logging;

/** How log lines are written: human-readable text or one JSON object per line. */
public enum LogFormat {
  TEXT,
  JSON
}
