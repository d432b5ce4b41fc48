package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.KeyPolicy;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import org.junit.jupiter.api.Test;

/** The key settings cipherd writes to KV metadata, without a Vault. */
class KvKeySettingsTest {
  @Test
  void metadataWrite_neverLeavesMaxVersionsAtZero_whichKvV2ReadsAsTen() {
    JsonObject write = KvKeySettings.metadataWrite(KeyPolicy.DEFAULT);

    assertThat(write.get("max_versions").asLong()).isEqualTo(Integer.MAX_VALUE);
    assertThat(write.get("cas_required").asBoolean()).isTrue();
    assertThat(write.get("delete_version_after").asString()).isEqualTo("0s");
    assertThat(KvKeySettings.keepsAllVersions(write)).isTrue();
  }

  @Test
  void keepsAllVersions_defaultMetadataOrNoCasRequired_isFalse() {
    assertThat(
            KvKeySettings.keepsAllVersions(
                Json.parse("{\"max_versions\":0,\"cas_required\":true}").asObject()))
        .isFalse();
    assertThat(
            KvKeySettings.keepsAllVersions(
                Json.parse("{\"max_versions\":2147483647,\"cas_required\":false}").asObject()))
        .isFalse();
  }

  @Test
  void policy_roundTripsThroughCustomMetadata() {
    KeyPolicy policy = new KeyPolicy(3, 5, true);

    assertThat(KvKeySettings.policy(KvKeySettings.metadataWrite(policy))).isEqualTo(policy);
  }

  @Test
  void policy_withoutCustomMetadata_isTheDefault() {
    assertThat(KvKeySettings.policy(Json.parse("{\"custom_metadata\":null}").asObject()))
        .isEqualTo(KeyPolicy.DEFAULT);
  }
}
