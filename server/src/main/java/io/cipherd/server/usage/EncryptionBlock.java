package io.cipherd.server.usage;

/**
 * One holder's run of encryptions with one key version (a batch, a stream's items between two
 * looks), counted once when the holder {@link #settle settles} rather than per encryption. Under a
 * limit, encryptions are reserved {@link UsageLedger#ENCRYPTION_BLOCK} at a time while the version
 * is far from it ({@link EncryptionCap#tryReserveBlock}), and what a settled block did not use is
 * given back; near the limit {@link #take} refuses and the holder reserves one at a time as before.
 * Without a limit nothing is reserved: encryptions are only counted. Confined to its holder's
 * thread or lock; the holder settles it before letting it go, also when its work throws.
 */
public final class EncryptionBlock {
  private final UsageLedger ledger;
  private final String name;
  private final int version;
  private final long limit;

  /** Encryptions reserved and not taken yet: a capped block's rest; without a limit, no bound. */
  private long left;

  /** Encryptions taken since the last settling, not counted in the ledger yet. */
  private long taken;

  /** A block was refused: the rest of the run reserves one at a time. */
  private boolean refused;

  EncryptionBlock(UsageLedger ledger, String name, int version, long limit) {
    this.ledger = ledger;
    this.name = name;
    this.version = version;
    this.limit = limit;
    this.left = limit <= 0 ? Long.MAX_VALUE : 0;
  }

  /**
   * Takes one encryption, reserving a block first if none is left: true, to be made or given back
   * ({@link #giveBack}); false, taking nothing, when the version is too near its limit for a block,
   * and from then on (reserve each alone then). May reach the store as {@link
   * UsageLedger#reserveEncryption} does.
   */
  public boolean take() {
    if (left == 0) {
      if (refused) {
        return false;
      }
      settle();
      if (!ledger.reserveBlock(name, version, limit)) {
        refused = true;
        return false;
      }
      left = UsageLedger.ENCRYPTION_BLOCK;
    }
    left--;
    taken++;
    return true;
  }

  /** Gives back an encryption of {@link #take} that made no ciphertext: it counts no more. */
  public void giveBack() {
    left++;
    taken--;
  }

  /**
   * Counts the encryptions taken since the last settling in the ledger, at once, and gives back the
   * rest of a capped block.
   */
  public void settle() {
    if (limit <= 0) {
      ledger.settleBlock(name, version, limit, taken, 0);
    } else if (left + taken > 0) {
      ledger.settleBlock(name, version, limit, taken, left);
      left = 0;
    }
    taken = 0;
  }
}
