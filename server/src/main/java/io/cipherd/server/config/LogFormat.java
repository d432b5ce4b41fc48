package io.cipherd.server.config;

/** How log lines are written: human-readable text or one JSON object per line. */
public enum LogFormat {
  TEXT,
  JSON
}
