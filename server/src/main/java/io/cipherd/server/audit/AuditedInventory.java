package io.cipherd.server.audit;

import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.VersionCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A data inventory as a RetireKeyVersions request sent it, for the call's record: the evidence a
 * retirement was allowed or refused on. Taken before the request is validated, so a refused request
 * is recorded too, within the same bounds the server validates against: at most {@value
 * #MAX_INVENTORIES} inventories of {@value #MAX_VERSIONS} versions, sources cut to {@value
 * #MAX_SOURCE} characters.
 *
 * @param scanTime when the scan finished, or null if the inventory did not say
 * @param versions the count of ciphertexts under each version, in the request's order
 */
record AuditedInventory(
    String keyName,
    String source,
    Instant scanTime,
    long itemsScanned,
    Map<Integer, Long> versions) {
  static final int MAX_INVENTORIES = 100;
  static final int MAX_VERSIONS = 1000;
  static final int MAX_SOURCE = 256;

  /** The inventories {@code request} carries; empty for any other request. */
  static List<AuditedInventory> of(Object request) {
    if (!(request instanceof RetireKeyVersionsRequest retire)
        || retire.getInventoriesCount() == 0) {
      return List.of();
    }
    List<AuditedInventory> recorded = new ArrayList<>();
    for (DataInventory inventory : retire.getInventoriesList()) {
      if (recorded.size() == MAX_INVENTORIES) {
        break;
      }
      Map<Integer, Long> versions = new LinkedHashMap<>();
      for (VersionCount count : inventory.getVersionsList()) {
        if (versions.size() == MAX_VERSIONS) {
          break;
        }
        versions.put(count.getVersion(), count.getCiphertexts());
      }
      recorded.add(
          new AuditedInventory(
              cut(inventory.getKeyName()),
              cut(inventory.getSource()),
              inventory.hasScanTime()
                  ? Instant.ofEpochSecond(
                      inventory.getScanTime().getSeconds(), inventory.getScanTime().getNanos())
                  : null,
              inventory.getItemsScanned(),
              versions));
    }
    return List.copyOf(recorded);
  }

  private static String cut(String text) {
    return text.length() <= MAX_SOURCE ? text : text.substring(0, MAX_SOURCE);
  }
}
