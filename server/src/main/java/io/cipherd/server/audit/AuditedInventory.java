package io.cipherd.server.audit;

import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.VersionCount;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A data inventory as a RetireKeyVersions request sent it, for the call's record: the evidence a
 * retirement was allowed or refused on. Taken before the request is validated, so a refused request
 * is recorded too, within a record's budget: the counts of the first {@value #MAX_VERSIONS}
 * versions one by one, the rest as how many versions and ciphertexts they were; key names cut to
 * the longest valid one, sources to {@value #MAX_SOURCE} characters.
 *
 * @param scanTime when the scan finished, or null if the inventory did not say
 * @param versions the count of ciphertexts under each version, in the request's order
 * @param versionsFolded how many more versions the inventory counted
 * @param ciphertextsFolded the ciphertexts under those versions
 */
record AuditedInventory(
    String keyName,
    String source,
    Instant scanTime,
    long itemsScanned,
    Map<Integer, Long> versions,
    long versionsFolded,
    long ciphertextsFolded) {
  static final int MAX_VERSIONS = 16;
  static final int MAX_SOURCE = 256;

  static AuditedInventory of(DataInventory inventory) {
    Map<Integer, Long> versions = new LinkedHashMap<>();
    long versionsFolded = 0;
    long ciphertextsFolded = 0;
    for (VersionCount count : inventory.getVersionsList()) {
      if (versions.size() < MAX_VERSIONS && !versions.containsKey(count.getVersion())) {
        versions.put(count.getVersion(), count.getCiphertexts());
      } else {
        versionsFolded++;
        ciphertextsFolded += count.getCiphertexts();
      }
    }
    return new AuditedInventory(
        cut(inventory.getKeyName(), EnvelopeHeader.MAX_KEY_NAME_LENGTH),
        cut(inventory.getSource(), MAX_SOURCE),
        inventory.hasScanTime()
            ? Instant.ofEpochSecond(
                inventory.getScanTime().getSeconds(), inventory.getScanTime().getNanos())
            : null,
        inventory.getItemsScanned(),
        versions,
        versionsFolded,
        ciphertextsFolded);
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
