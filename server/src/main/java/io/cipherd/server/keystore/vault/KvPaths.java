package io.cipherd.server.keystore.vault;

/** The KV v2 API paths of cipherd's keys: {@code <mount>/data|metadata|destroy/<prefix>/<name>}. */
record KvPaths(String mount, String prefix) {
  String data(String name) {
    return mount + "/data/" + prefix + "/" + name;
  }

  String dataVersion(String name, int version) {
    return data(name) + "?version=" + version;
  }

  String metadata(String name) {
    return mount + "/metadata/" + prefix + "/" + name;
  }

  /** Where KV v2 destroys versions' data for good: {@code <mount>/destroy/<prefix>/<name>}. */
  String destroy(String name) {
    return mount + "/destroy/" + prefix + "/" + name;
  }

  /** The folder listed for key names (the driver appends {@code ?list=true}). */
  String metadataFolder() {
    return mount + "/metadata/" + prefix;
  }
}
