package io.cipherd.server;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.cipherd.server.logging.CallRequest;
import org.junit.jupiter.api.Test;

/**
 * The package layering, checked on the compiled classes: each layer may use only the layers below
 * it, and no two packages depend on each other.
 *
 * <pre>
 *   wiring (Cipherd, CipherdServer, Main) → cli → api, ops, maintenance, logging, metrics
 *   api → audit → engine → lifecycle → keycache → usage → keys, pool, security
 *   engine → importjobs (import jobs and their RSA keys) → crypto; api and cli read its values,
 *   audit a backup recipient's fingerprint
 *   keys, pool, security → crypto.envelope → crypto → errors
 *   audit (the audit trail) is read by api (AuditService), metrics and cli, and reads the
 *   request ids of logging
 *   maintenance → ops (the key refresher reports the store's reachability to Health)
 *   keystore.pkcs12, keystore.vault → keys (they implement its store interfaces); only the
 *   wiring picks one
 *   subjectstore (SubjectStores, subjectstore.jdbc) → subjects (it implements its SubjectStore);
 *   only the wiring opens one
 *   api → logging for CallRequest only: the API's view of a request is what the access log shows
 *   tracing → engine, keys, logging (the span's attributes, key-store child spans); only the
 *   wiring and cli use it
 *   metrics → subjects (the subject store's round-trips, timed as the key store's calls are)
 * </pre>
 */
class LayeringTest {
  private static final JavaClasses SERVER =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.cipherd.server");

  @Test
  void layers_dependOnlyDownwards() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("wiring")
        .definedBy("io.cipherd.server")
        .layer("cli")
        .definedBy("io.cipherd.server.cli..")
        .layer("api")
        .definedBy("io.cipherd.server.api..")
        .layer("ops")
        .definedBy("io.cipherd.server.ops..")
        .layer("maintenance")
        .definedBy("io.cipherd.server.maintenance..")
        .layer("logging")
        .definedBy("io.cipherd.server.logging..")
        .layer("metrics")
        .definedBy("io.cipherd.server.metrics..")
        .layer("tracing")
        .definedBy("io.cipherd.server.tracing..")
        .layer("audit")
        .definedBy("io.cipherd.server.audit..")
        .layer("engine")
        .definedBy("io.cipherd.server.engine..")
        .layer("subjectkeys")
        .definedBy("io.cipherd.server.subjectkeys..")
        .layer("subjects")
        .definedBy("io.cipherd.server.subjects..")
        .layer("security")
        .definedBy("io.cipherd.server.security..")
        .layer("keystore")
        .definedBy("io.cipherd.server.keystore..")
        .layer("subjectstore")
        .definedBy("io.cipherd.server.subjectstore..")
        .layer("importjobs")
        .definedBy("io.cipherd.server.importjobs..")
        .layer("lifecycle")
        .definedBy("io.cipherd.server.lifecycle..")
        .layer("keycache")
        .definedBy("io.cipherd.server.keycache..")
        .layer("usage")
        .definedBy("io.cipherd.server.usage..")
        .layer("keys")
        .definedBy("io.cipherd.server.keys..")
        .layer("pool")
        .definedBy("io.cipherd.server.pool..")
        .layer("crypto")
        .definedBy("io.cipherd.server.crypto..")
        .layer("errors")
        .definedBy("io.cipherd.server.errors..")
        .whereLayer("wiring")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("cli")
        .mayOnlyBeAccessedByLayers("wiring")
        .whereLayer("api")
        .mayOnlyBeAccessedByLayers("wiring", "cli")
        .whereLayer("ops")
        .mayOnlyBeAccessedByLayers("wiring", "maintenance")
        .whereLayer("maintenance")
        .mayOnlyBeAccessedByLayers("wiring")
        .whereLayer("logging")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "audit", "api", "tracing")
        .whereLayer("audit")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "api", "metrics")
        .whereLayer("keystore")
        .mayOnlyBeAccessedByLayers("wiring", "cli")
        .whereLayer("subjectstore")
        .mayOnlyBeAccessedByLayers("wiring")
        .whereLayer("engine")
        .mayOnlyBeAccessedByLayers("wiring", "api", "audit", "metrics", "tracing")
        .whereLayer("metrics")
        .mayOnlyBeAccessedByLayers("wiring")
        .whereLayer("tracing")
        .mayOnlyBeAccessedByLayers("wiring", "cli")
        .whereLayer("subjectkeys")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "api", "engine", "maintenance")
        .whereLayer("subjects")
        .mayOnlyBeAccessedByLayers(
            "wiring",
            "cli",
            "api",
            "engine",
            "maintenance",
            "lifecycle",
            "metrics",
            "subjectkeys",
            "subjectstore")
        .whereLayer("security")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "engine", "logging", "metrics", "api", "audit")
        .whereLayer("importjobs")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "api", "audit", "engine")
        .whereLayer("lifecycle")
        .mayOnlyBeAccessedByLayers("wiring", "api", "audit", "engine", "metrics", "maintenance")
        .whereLayer("keycache")
        .mayOnlyBeAccessedByLayers(
            "wiring", "api", "audit", "engine", "metrics", "maintenance", "lifecycle")
        .whereLayer("usage")
        .mayOnlyBeAccessedByLayers(
            "wiring", "engine", "metrics", "maintenance", "lifecycle", "keycache")
        .whereLayer("keys")
        .mayOnlyBeAccessedByLayers(
            "wiring",
            "api",
            "audit",
            "engine",
            "keystore",
            "metrics",
            "tracing",
            "ops",
            "maintenance",
            "lifecycle",
            "keycache",
            "usage")
        .whereLayer("pool")
        .mayOnlyBeAccessedByLayers("wiring", "cli", "engine", "metrics")
        .check(SERVER);
  }

  @Test
  void api_usesLogging_onlyForTheViewOfARequest() {
    noClasses()
        .that()
        .resideInAPackage("io.cipherd.server.api..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.cipherd.server.logging..")
                .and(not(belongToAnyOf(CallRequest.class))))
        .check(SERVER);
  }

  @Test
  void packages_haveNoCycles() {
    slices().matching("io.cipherd.server.(**)").should().beFreeOfCycles().check(SERVER);
  }
}
