package io.cipherd.server.security;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads an access policy from YAML, strictly: an unknown field, operation or caller attribute, a
 * bad key pattern or a malformed token hash fails start-up with the file, line and entry at fault.
 *
 * <pre>
 * callers:
 *   billing:                       # a client certificate SAN/CN, or a bearer token's name
 *     token_sha256: 9f86d0...      # optional: hex SHA-256 of the caller's bearer token
 *     rules:
 *       - keys: [payments-*]
 *         operations: [encrypt, decrypt]
 * </pre>
 */
public final class AccessPolicyFile {
  private static final Set<String> CALLER_FIELDS = Set.of("token_sha256", "rules");
  private static final Set<String> RULE_FIELDS = Set.of("keys", "operations");

  private final String source;

  private AccessPolicyFile(String source) {
    this.source = source;
  }

  /** Loads and validates the policy in {@code file}. */
  public static AccessPolicy load(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return new AccessPolicyFile(file.toString()).parse(reader);
    }
  }

  /** Parses a policy from {@code reader}; {@code source} names it in errors. */
  public static AccessPolicy parse(String source, Reader reader) {
    return new AccessPolicyFile(source).parse(reader);
  }

  private AccessPolicy parse(Reader reader) {
    Node root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).compose(reader);
    } catch (YAMLException e) {
      throw new IllegalArgumentException(
          "access policy " + source + " is not valid YAML: " + e.getMessage(), e);
    }
    if (root == null) {
      throw new IllegalArgumentException(
          "access policy " + source + " is empty; it needs a 'callers' map");
    }
    Map<String, Node> top = fields(root, "the document", Set.of("callers"));
    Node callersNode = top.get("callers");
    if (callersNode == null) {
      throw error(root, "the document", "needs a 'callers' map");
    }
    Map<String, List<AccessRule>> rules = new LinkedHashMap<>();
    Map<String, byte[]> tokens = new LinkedHashMap<>();
    for (NodeTuple entry : mapping(callersNode, "callers").getValue()) {
      String caller = scalar(entry.getKeyNode(), "callers");
      String path = "callers." + caller;
      if (caller.isEmpty() || rules.containsKey(caller)) {
        throw error(
            entry.getKeyNode(),
            path,
            caller.isEmpty() ? "caller name is empty" : "caller is named twice");
      }
      Map<String, Node> fields = fields(entry.getValueNode(), path, CALLER_FIELDS);
      if (fields.containsKey("token_sha256")) {
        tokens.put(caller, tokenHash(fields.get("token_sha256"), path + ".token_sha256"));
      }
      Node rulesNode = fields.get("rules");
      if (rulesNode == null) {
        throw error(entry.getValueNode(), path, "needs 'rules' (a list of {keys, operations})");
      }
      List<AccessRule> parsed = new ArrayList<>();
      List<Node> items = sequence(rulesNode, path + ".rules").getValue();
      for (int i = 0; i < items.size(); i++) {
        parsed.add(rule(items.get(i), path + ".rules[" + i + "]"));
      }
      rules.put(caller, parsed);
    }
    return new AccessPolicy(rules, new BearerTokens(tokens));
  }

  private AccessRule rule(Node node, String path) {
    Map<String, Node> fields = fields(node, path, RULE_FIELDS);
    if (!fields.containsKey("keys") || !fields.containsKey("operations")) {
      throw error(node, path, "needs both 'keys' and 'operations'");
    }
    List<KeyPattern> keys = new ArrayList<>();
    for (Node item : nonEmptySequence(fields.get("keys"), path + ".keys")) {
      try {
        keys.add(KeyPattern.of(scalar(item, path + ".keys")));
      } catch (IllegalArgumentException e) {
        throw error(item, path + ".keys", e.getMessage());
      }
    }
    Set<Operation> operations = EnumSet.noneOf(Operation.class);
    for (Node item : nonEmptySequence(fields.get("operations"), path + ".operations")) {
      String name = scalar(item, path + ".operations");
      Operation operation = Operation.fromConfigName(name);
      if (operation == null) {
        throw error(
            item,
            path + ".operations",
            "unknown operation '" + name + "'; expected one of " + Operation.configNames());
      }
      operations.add(operation);
    }
    return new AccessRule(keys, operations);
  }

  private byte[] tokenHash(Node node, String path) {
    String hex = node instanceof ScalarNode s ? s.getValue().strip() : "";
    if (!hex.matches("[0-9a-fA-F]{64}")) {
      throw error(
          node,
          path,
          "must be the 64 hex digits of the token's SHA-256 (e.g. from "
              + "'printf %s TOKEN | sha256sum'); plain tokens are never stored");
    }
    return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
  }

  private Map<String, Node> fields(Node node, String path, Set<String> allowed) {
    Map<String, Node> fields = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (NodeTuple tuple : mapping(node, path).getValue()) {
      String name = scalar(tuple.getKeyNode(), path);
      if (!allowed.contains(name)) {
        throw error(tuple.getKeyNode(), path, "unknown field '" + name + "'; expected " + allowed);
      }
      if (!seen.add(name)) {
        throw error(tuple.getKeyNode(), path, "field '" + name + "' is given twice");
      }
      fields.put(name, tuple.getValueNode());
    }
    return fields;
  }

  private MappingNode mapping(Node node, String path) {
    if (node instanceof MappingNode mapping) {
      return mapping;
    }
    throw error(node, path, "must be a map");
  }

  private SequenceNode sequence(Node node, String path) {
    if (node instanceof SequenceNode sequence) {
      return sequence;
    }
    throw error(node, path, "must be a list");
  }

  private List<Node> nonEmptySequence(Node node, String path) {
    List<Node> items = sequence(node, path).getValue();
    if (items.isEmpty()) {
      throw error(node, path, "must not be empty");
    }
    return items;
  }

  private String scalar(Node node, String path) {
    if (node instanceof ScalarNode scalar) {
      return scalar.getValue();
    }
    throw error(node, path, "must be a single value");
  }

  private IllegalArgumentException error(Node node, String path, String message) {
    return new IllegalArgumentException(
        "access policy "
            + source
            + " line "
            + (node.getStartMark().getLine() + 1)
            + ", "
            + path
            + ": "
            + message);
  }
}
