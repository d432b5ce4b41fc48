package io.cipherd.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A heap dump in the HPROF format (as {@code jcmd GC.heap_dump} and {@code HotSpotDiagnosticMXBean}
 * write it), read just far enough to say where given bytes occur: in which object (a {@code
 * byte[]}, an {@code int[]} key schedule, which HPROF writes big-endian, so a key's words read as
 * its bytes, or an instance's fields) and which objects refer to that one, up a few levels, by
 * class name.
 *
 * <p>References are found by looking for the object's id anywhere in other objects' field bytes and
 * object arrays, without the class layouts: an id is a 64-bit address, so a random match is not a
 * concern for a test.
 */
public final class HprofHeap {
  /**
   * How {@link #holders} ends a chain whose first object nothing refers to and no GC root holds: in
   * a dump of live objects, free memory the collector covered with a filler array, whose contents
   * are whatever the freed objects held (a collection frees memory, it does not zero it).
   */
  public static final String UNREFERENCED = "<- nothing (free memory, not a live object)";

  private static final int STRING = 0x01;
  private static final int LOAD_CLASS = 0x02;
  private static final int HEAP_DUMP = 0x0c;
  private static final int HEAP_DUMP_SEGMENT = 0x1c;

  private final byte[] bytes;
  private final int idSize;
  private final Map<Long, String> strings = new HashMap<>();
  private final Map<Long, Long> classNameIds = new HashMap<>();

  /** Every object, ordered by where its contents start in the file. */
  private final List<long[]> objects = new ArrayList<>();

  // object row: {id, contentStart, contentLength, kind, classIdOrType}
  private static final int KIND_INSTANCE = 0;
  private static final int KIND_OBJECT_ARRAY = 1;
  private static final int KIND_PRIMITIVE_ARRAY = 2;
  private static final int KIND_CLASS = 3;

  private long[] starts;

  /** GC roots by object id: what kind of root, and for a stack or thread root, the thread. */
  private final Map<Long, String> roots = new HashMap<>();

  private final Map<Long, Long> threadObjects = new HashMap<>();

  private HprofHeap(byte[] bytes) {
    this.bytes = bytes;
    int header = 0;
    while (bytes[header] != 0) {
      header++;
    }
    String format = new String(bytes, 0, header, StandardCharsets.US_ASCII);
    if (!format.startsWith("JAVA PROFILE")) {
      throw new IllegalArgumentException("not an HPROF file: " + format);
    }
    this.idSize = (int) u4(header + 1);
    parse(header + 1 + 4 + 8);
    objects.sort((a, b) -> Long.compare(a[1], b[1]));
    starts = new long[objects.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = objects.get(i)[1];
    }
  }

  public static HprofHeap read(Path file) throws IOException {
    return new HprofHeap(Files.readAllBytes(file));
  }

  /** How many times {@code needle} occurs anywhere in the file. */
  public int count(byte[] needle) {
    return offsets(needle).size();
  }

  /**
   * Each occurrence of {@code needle}, as the chain of objects holding it: the object whose
   * contents hold the bytes first, then one object referring to it, and so on up to {@code depth}
   * levels (e.g. {@code byte[32] <- javax.crypto.spec.SecretKeySpec <- ...}).
   */
  public List<String> holders(byte[] needle, int depth) {
    List<String> chains = new ArrayList<>();
    for (int offset : offsets(needle)) {
      long[] object = containing(offset);
      if (object == null) {
        chains.add("(outside any object, at offset " + offset + ")");
        continue;
      }
      StringBuilder chain = new StringBuilder(describe(object));
      Set<Long> seen = new HashSet<>();
      seen.add(object[0]);
      long[] current = object;
      for (int level = 0; level < depth; level++) {
        String root = roots.get(current[0]);
        if (root != null) {
          chain.append(" <- ").append(root);
          break;
        }
        long[] referrer = referrer(current[0], seen);
        if (referrer == null) {
          chain.append(level == 0 ? " " + UNREFERENCED : "");
          break;
        }
        seen.add(referrer[0]);
        chain.append(" <- ").append(describe(referrer));
        current = referrer;
      }
      chains.add(chain.toString());
    }
    return chains;
  }

  /** {@link #holders} tallied: each distinct chain and how often it occurs. */
  public Map<String, Integer> holderCounts(byte[] needle, int depth) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String chain : holders(needle, depth)) {
      counts.merge(chain, 1, Integer::sum);
    }
    return counts;
  }

  private List<Integer> offsets(byte[] needle) {
    List<Integer> found = new ArrayList<>();
    outer:
    for (int i = 0; i <= bytes.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (bytes[i + j] != needle[j]) {
          continue outer;
        }
      }
      found.add(i);
    }
    return found;
  }

  private long[] containing(int offset) {
    int i = Arrays.binarySearch(starts, offset);
    if (i < 0) {
      i = -i - 2;
    }
    if (i < 0) {
      return null;
    }
    long[] object = objects.get(i);
    return offset < object[1] + object[2] ? object : null;
  }

  /** One object other than those in {@code seen} whose fields or elements hold {@code id}. */
  private long[] referrer(long id, Set<Long> seen) {
    for (long[] object : objects) {
      if (object[3] == KIND_PRIMITIVE_ARRAY || seen.contains(object[0])) {
        continue;
      }
      int from = (int) object[1];
      int end = from + (int) object[2] - idSize;
      byte last = (byte) id;
      for (int i = from; i <= end; i++) {
        if (bytes[i + idSize - 1] == last && id(i) == id) {
          return object;
        }
      }
    }
    return null;
  }

  private String describe(long[] object) {
    return switch ((int) object[3]) {
      case KIND_PRIMITIVE_ARRAY -> primitiveName((int) object[4]) + "[" + length(object) + "]";
      case KIND_OBJECT_ARRAY -> className(object[4]) + "(" + object[2] / idSize + ")";
      case KIND_CLASS -> "static fields of " + className(object[0]);
      default -> className(object[4]);
    };
  }

  private static long length(long[] object) {
    return object[2] / primitiveSize((int) object[4]);
  }

  private String className(long classId) {
    Long nameId = classNameIds.get(classId);
    String name = nameId == null ? null : strings.get(nameId);
    return name == null ? "?" : name.replace('/', '.');
  }

  private void parse(int position) {
    while (position < bytes.length) {
      int tag = bytes[position] & 0xff;
      long length = u4(position + 5);
      int body = position + 9;
      switch (tag) {
        case STRING ->
            strings.put(
                id(body),
                new String(bytes, body + idSize, (int) length - idSize, StandardCharsets.UTF_8));
        case LOAD_CLASS -> classNameIds.put(id(body + 4), id(body + 4 + idSize + 4));
        case HEAP_DUMP, HEAP_DUMP_SEGMENT -> parseHeap(body, body + (int) length);
        default -> {}
      }
      position = body + (int) length;
    }
  }

  private void parseHeap(int position, int end) {
    while (position < end) {
      int tag = bytes[position++] & 0xff;
      switch (tag) {
        case 0xff, 0x05, 0x07 -> {
          roots.putIfAbsent(id(position), "GC root (" + rootName(tag) + ")");
          position += idSize;
        }
        case 0x01 -> {
          roots.putIfAbsent(id(position), "GC root (JNI global)");
          position += 2 * idSize;
        }
        case 0x08 -> {
          threadObjects.put(u4(position + idSize) & 0xffffffffL, id(position));
          roots.putIfAbsent(id(position), "GC root (thread)");
          position += idSize + 8;
        }
        case 0x02, 0x03 -> {
          long thread = u4(position + idSize);
          roots.putIfAbsent(
              id(position), "GC root (" + rootName(tag) + " of thread serial " + thread + ")");
          position += idSize + 8;
        }
        case 0x04, 0x06 -> {
          roots.putIfAbsent(id(position), "GC root (" + rootName(tag) + ")");
          position += idSize + 4;
        }
        case 0x20 -> position = classDump(position);
        case 0x21 -> {
          long id = id(position);
          long classId = id(position + idSize + 4);
          int length = (int) u4(position + 2 * idSize + 4);
          int content = position + 2 * idSize + 8;
          objects.add(new long[] {id, content, length, KIND_INSTANCE, classId});
          position = content + length;
        }
        case 0x22 -> {
          long id = id(position);
          int count = (int) u4(position + idSize + 4);
          long classId = id(position + idSize + 8);
          int content = position + 2 * idSize + 8;
          objects.add(new long[] {id, content, (long) count * idSize, KIND_OBJECT_ARRAY, classId});
          position = content + count * idSize;
        }
        case 0x23 -> {
          long id = id(position);
          int count = (int) u4(position + idSize + 4);
          int type = bytes[position + idSize + 8] & 0xff;
          int content = position + idSize + 9;
          int length = count * primitiveSize(type);
          objects.add(new long[] {id, content, length, KIND_PRIMITIVE_ARRAY, type});
          position = content + length;
        }
        default ->
            throw new IllegalStateException(
                "unknown heap dump record " + tag + " at " + (position - 1));
      }
    }
  }

  private static String rootName(int tag) {
    return switch (tag) {
      case 0x02 -> "JNI local";
      case 0x03 -> "Java frame";
      case 0x04 -> "native stack";
      case 0x05 -> "system class";
      case 0x06 -> "thread block";
      case 0x07 -> "monitor";
      default -> "unknown";
    };
  }

  private int classDump(int position) {
    long id = id(position);
    int p =
        position + 7 * idSize + 8; // id, stack, super, loader, signers, domain, 2 reserved, size
    int constants = u2(p);
    p += 2;
    for (int i = 0; i < constants; i++) {
      p += 2;
      int type = bytes[p++] & 0xff;
      p += valueSize(type);
    }
    int statics = u2(p);
    p += 2;
    int staticsStart = p;
    for (int i = 0; i < statics; i++) {
      p += idSize;
      int type = bytes[p++] & 0xff;
      p += valueSize(type);
    }
    // Static fields can hold references (a static cache of keys): searchable like an instance's.
    objects.add(new long[] {id, staticsStart, p - staticsStart, KIND_CLASS, id});
    int fields = u2(p);
    p += 2;
    p += fields * (idSize + 1);
    return p;
  }

  private int valueSize(int type) {
    return type == 2 ? idSize : primitiveSize(type);
  }

  private static int primitiveSize(int type) {
    return switch (type) {
      case 4, 8 -> 1;
      case 5, 9 -> 2;
      case 6, 10 -> 4;
      case 7, 11 -> 8;
      default -> throw new IllegalStateException("unknown basic type " + type);
    };
  }

  private static String primitiveName(int type) {
    return switch (type) {
      case 4 -> "boolean";
      case 5 -> "char";
      case 6 -> "float";
      case 7 -> "double";
      case 8 -> "byte";
      case 9 -> "short";
      case 10 -> "int";
      case 11 -> "long";
      default -> "?";
    };
  }

  private long id(int position) {
    return idSize == 8 ? u8(position) : u4(position);
  }

  private long u8(int p) {
    return (u4(p) << 32) | u4(p + 4);
  }

  private long u4(int p) {
    return ((bytes[p] & 0xffL) << 24)
        | ((bytes[p + 1] & 0xffL) << 16)
        | ((bytes[p + 2] & 0xffL) << 8)
        | (bytes[p + 3] & 0xffL);
  }

  private int u2(int p) {
    return ((bytes[p] & 0xff) << 8) | (bytes[p + 1] & 0xff);
  }
}
