package io.cipherd.server.subjects;

import java.nio.file.Path;

/**
 * Where the subject store is.
 *
 * @param url a JDBC URL ({@code jdbc:postgresql://…}), or null for the embedded file database in
 *     {@code dataDir}
 * @param user the database user, or null
 * @param password the database password, or null
 * @param poolSize at most this many connections
 * @param dataDir the folder of the embedded database
 */
public record SubjectStoreConfig(
    String url, String user, char[] password, int poolSize, Path dataDir) {
  @Override
  public String toString() {
    // A URL's query may carry a password: it is left out.
    return "SubjectStoreConfig[url="
        + (url == null ? "embedded in " + dataDir : url.replaceFirst("\\?.*", "?…"))
        + ", user="
        + user
        + ", poolSize="
        + poolSize
        + "]";
  }
}
