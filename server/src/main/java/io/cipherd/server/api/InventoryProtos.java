package io.cipherd.server.api;

import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.VersionCount;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Converts the data inventories of a RetireKeyVersions request to the domain's. */
final class InventoryProtos {
  private InventoryProtos() {}

  /** {@code inventories} as the domain's, each validated; a bounded number is checked first. */
  static List<io.cipherd.server.keys.DataInventory> fromProto(List<DataInventory> inventories) {
    if (inventories.size() > io.cipherd.server.keys.DataInventory.MAX_INVENTORIES) {
      throw new InvalidArgumentException(
          "inventories: at most "
              + io.cipherd.server.keys.DataInventory.MAX_INVENTORIES
              + " per request");
    }
    List<io.cipherd.server.keys.DataInventory> domain = new ArrayList<>(inventories.size());
    for (DataInventory inventory : inventories) {
      domain.add(fromProto(inventory));
    }
    return domain;
  }

  private static io.cipherd.server.keys.DataInventory fromProto(DataInventory inventory) {
    if (inventory.getVersionsCount() > io.cipherd.server.keys.DataInventory.MAX_VERSIONS) {
      throw new InvalidArgumentException(
          "inventories: at most "
              + io.cipherd.server.keys.DataInventory.MAX_VERSIONS
              + " versions per inventory");
    }
    SortedMap<Integer, Long> counts = new TreeMap<>();
    for (VersionCount count : inventory.getVersionsList()) {
      if (counts.put(count.getVersion(), count.getCiphertexts()) != null) {
        throw new InvalidArgumentException(
            "inventories: version " + count.getVersion() + " is counted twice in one inventory");
      }
    }
    Instant scanTime =
        inventory.hasScanTime()
            ? Instant.ofEpochSecond(
                inventory.getScanTime().getSeconds(), inventory.getScanTime().getNanos())
            : null;
    return new io.cipherd.server.keys.DataInventory(
        inventory.getKeyName(),
        inventory.getSource(),
        scanTime,
        inventory.getItemsScanned(),
        counts);
  }
}
