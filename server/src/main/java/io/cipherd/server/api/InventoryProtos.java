package io.cipherd.server.api;

import io.cipherd.api.v1.DataInventoryOrBuilder;
import io.cipherd.api.v1.VersionCount;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.lifecycle.DataInventory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Converts the data inventories of a RetireKeyVersions request to the domain's. */
final class InventoryProtos {
  private InventoryProtos() {}

  /** {@code inventories} as the domain's, each validated; a bounded number is checked first. */
  static List<DataInventory> fromProto(List<? extends DataInventoryOrBuilder> inventories) {
    if (inventories.size() > DataInventory.MAX_INVENTORIES) {
      throw new InvalidArgumentException(
          "inventories: at most " + DataInventory.MAX_INVENTORIES + " per request");
    }
    List<DataInventory> domain = new ArrayList<>(inventories.size());
    for (DataInventoryOrBuilder inventory : inventories) {
      domain.add(fromProto(inventory));
    }
    return domain;
  }

  private static DataInventory fromProto(DataInventoryOrBuilder inventory) {
    if (inventory.getVersionsCount() > DataInventory.MAX_VERSIONS) {
      throw new InvalidArgumentException(
          "inventories: at most " + DataInventory.MAX_VERSIONS + " versions per inventory");
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
    return new DataInventory(
        inventory.getKeyName(),
        inventory.getSource(),
        scanTime,
        inventory.getItemsScanned(),
        counts);
  }
}
