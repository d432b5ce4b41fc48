package io.cipherd.server.cli;

import picocli.CommandLine.Command;

/** {@code cipherd kek}: the key-encryption key's commands. */
@Command(
    name = "kek",
    mixinStandardHelpOptions = true,
    description = "Key-encryption key of the material kept in Vault (docs/security.md).",
    subcommands = {KekMigrateCommand.class, KekRewrapCommand.class})
public final class KekCommand {}
