package io.cipherd.server.engine;

import io.cipherd.server.importjobs.BackupRecipient;
import io.cipherd.server.keys.ExportedKey;

/**
 * What a BackupKey writes out, once the caller was allowed it: the key whole and the recipient it
 * is wrapped for. Secret while {@code exported} holds bytes: the caller wipes it.
 */
public record BackupSource(ExportedKey exported, BackupRecipient recipient) {}
