package io.cipherd.server.audit;

import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The data inventories a RetireKeyVersions request sent, as its record keeps them: the first
 * {@value #MAX_INVENTORIES} one by one ({@link AuditedInventory}), and how many more there were, so
 * a record stays within its budget whatever a request carries.
 *
 * @param folded how many inventories past the first {@value #MAX_INVENTORIES} the request sent
 */
record AuditedInventories(List<AuditedInventory> kept, long folded) {
  static final int MAX_INVENTORIES = 16;

  /** No inventories: the record of any call but a RetireKeyVersions that sent some. */
  static final AuditedInventories NONE = new AuditedInventories(List.of(), 0);

  AuditedInventories {
    kept = List.copyOf(kept);
  }

  boolean isEmpty() {
    return kept.isEmpty() && folded == 0;
  }

  /** The inventories {@code request} carries; {@link #NONE} for any other request. */
  static AuditedInventories of(Object request) {
    if (!(request instanceof RetireKeyVersionsRequest retire)
        || retire.getInventoriesCount() == 0) {
      return NONE;
    }
    List<AuditedInventory> kept = new ArrayList<>();
    long folded = 0;
    for (DataInventory inventory : retire.getInventoriesList()) {
      if (kept.size() < MAX_INVENTORIES) {
        kept.add(AuditedInventory.of(inventory));
      } else {
        folded++;
      }
    }
    return new AuditedInventories(kept, folded);
  }
}
