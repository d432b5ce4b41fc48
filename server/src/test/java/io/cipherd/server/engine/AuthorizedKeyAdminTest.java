package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.importjobs.ImportJobs;
import io.cipherd.server.importjobs.ImportJobsConfig;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ListKeys as a caller who may see only some keys: what its pages and page tokens show, and what
 * they cost.
 */
class AuthorizedKeyAdminTest {
  private static final ImportJobs IMPORT_JOBS =
      new ImportJobs(ImportJobsConfig.DEFAULT, Clock.systemUTC());

  /** In name order the hidden keys come before, between and after the visible ones. */
  private static final List<String> NAMES =
      List.of(
          "a-1",
          "b-1",
          "b-2",
          "a-2",
          "0-hidden",
          "a",
          "a-3",
          "a0",
          "a_4",
          "a-4",
          "a-5",
          "b-3",
          "a-6",
          "b-4",
          "b-5",
          "a-7");

  private static final List<String> VISIBLE =
      List.of("a-1", "a-2", "a-3", "a-4", "a-5", "a-6", "a-7");

  private final CountingKeyStore store = new CountingKeyStore(new InMemoryKeyStore());
  private final Keys keys = Keys.over(store);

  AuthorizedKeyAdminTest() {
    NAMES.forEach(name -> keys.create(name, KeyTemplate.of(CipherMode.GCM)));
  }

  @AfterEach
  void close() {
    keys.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 1000})
  void list_asACallerWhoSeesSomeKeys_returnsEachVisibleKeyOnce_andNeverNamesAHiddenOne(
      int pageSize) {
    AuthorizedKeyAdmin administration =
        new AuthorizedKeyAdmin(
            keys.admin(), inspecting(name -> name.startsWith("a-")), IMPORT_JOBS, false);
    List<String> listed = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      store.resetCounts();
      AuthorizedKeyAdmin.KeyPage page = administration.list(token, pageSize);
      List<String> names = page.keys().stream().map(KeyMetadata::name).toList();

      assertThat(names).as("page %d", pages).isNotEmpty().allMatch(VISIBLE::contains);
      assertThat(store.calls("readKey"))
          .as("store reads of page %d", pages)
          .isLessThanOrEqualTo(pageSize);
      assertThat(page.nextPageToken())
          .as("token of page %d", pages)
          .isIn("", names.get(names.size() - 1));
      listed.addAll(names);
      token = page.nextPageToken();
      pages++;
    } while (!token.isEmpty() && pages <= VISIBLE.size());

    assertThat(listed).containsExactlyElementsOf(VISIBLE);
  }

  @Test
  void list_asACallerWhoSeesNoKey_isOneEmptyPageWithoutAToken_readingNoKey() {
    AuthorizedKeyAdmin administration =
        new AuthorizedKeyAdmin(keys.admin(), inspecting(name -> false), IMPORT_JOBS, false);
    store.resetCounts();

    AuthorizedKeyAdmin.KeyPage page = administration.list("", 2);

    assertThat(page.keys()).isEmpty();
    assertThat(page.nextPageToken()).isEmpty();
    assertThat(store.calls("readKey")).isZero();
  }

  /** A caller who may inspect the keys {@code visible} accepts, and do nothing else. */
  private static Authorizer inspecting(Predicate<String> visible) {
    return new Authorizer() {
      @Override
      public void check(Operation operation, String keyName) {
        throw new AssertionError("a listing asks allows(), which counts no refusal");
      }

      @Override
      public boolean allows(Operation operation, String keyName) {
        return operation == Operation.INSPECT && visible.test(keyName);
      }

      @Override
      public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {
        throw new AssertionError("not part of a listing");
      }

      @Override
      public void checkReIndex(String sourceKey, KeyType sourceType) {
        throw new AssertionError("not part of a listing");
      }
    };
  }
}
