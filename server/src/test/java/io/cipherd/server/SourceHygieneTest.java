package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules about the Java sources themselves, which the compiled classes cannot show: no code names a
 * type by its fully qualified name (the imports say where each type comes from); nothing is exempt.
 * It also prints the main files over {@value #LONG_FILE_LINES} lines, longest first, as a report to
 * read, not a gate.
 *
 * <p>A long file deserves a look, but files are split where a concept ends, never to come in under
 * a count: as a gate, a line bound produced forwarding classes that existed only for it.
 */
class SourceHygieneTest {
  static final int LONG_FILE_LINES = 300;

  private static final Path MAIN = Path.of("src", "main", "java");
  private static final Path TEST = Path.of("src", "test", "java");

  /**
   * A dotted name whose lowercase segments end in a capitalised one, not itself after a dot or
   * inside a longer name: {@code java.util.Map}, but also {@code request.field.X}, which {@link
   * #inlineQualifiedNames} tells apart by loading the class the name would be.
   */
  private static final Pattern DOTTED_TYPE =
      Pattern.compile("(?<![\\w.$])((?:[a-z_][a-z0-9_]*\\.)+)([A-Z][\\w$]*)");

  private static final Pattern PACKAGE_OR_IMPORT =
      Pattern.compile("^\\s*(package|import)\\b[^;]*;", Pattern.MULTILINE);

  @Test
  void longMainFiles_areReported() {
    List<String> report = longFiles(MAIN, LONG_FILE_LINES);
    System.out.printf(
        "main files over %d lines (a report, not a gate): %d%n", LONG_FILE_LINES, report.size());
    report.forEach(line -> System.out.println("  " + line));
  }

  @Test
  void theReport_listsOnlyFilesOverItsLength_longestFirst(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("Short.java"), "class Short {}\n".repeat(3));
    Files.writeString(dir.resolve("Long.java"), "// line\n".repeat(12));
    Files.writeString(dir.resolve("Longer.java"), "// line\n".repeat(20));

    assertThat(longFiles(dir, 10))
        .containsExactly(
            dir.resolve("Longer.java") + ": 20 lines", dir.resolve("Long.java") + ": 12 lines");
  }

  /** Each Java file under {@code root} over {@code lines} lines, longest first, with its count. */
  static List<String> longFiles(Path root, int lines) {
    record Counted(Path file, int lines) {}
    List<Counted> counted = new ArrayList<>();
    for (Path file : javaFiles(root)) {
      try {
        counted.add(new Counted(file, Files.readAllLines(file).size()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return counted.stream()
        .filter(c -> c.lines() > lines)
        .sorted(Comparator.comparingInt(Counted::lines).reversed())
        .map(c -> c.file() + ": " + c.lines() + " lines")
        .toList();
  }

  @Test
  void noSource_namesATypeByItsFullyQualifiedName() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : Stream.concat(javaFiles(MAIN).stream(), javaFiles(TEST).stream()).toList()) {
      for (String name : inlineQualifiedNames(Files.readString(file))) {
        found.add(file + ": " + name);
      }
    }
    assertThat(found).as("fully qualified names in code; import them instead").isEmpty();
  }

  @Test
  void theScan_flagsNamesInCodeOnly_notInPackageImportsCommentsOrStrings() {
    String source =
        """
        package io.cipherd.server;

        import java.util.List;
        import static java.util.Objects.requireNonNull;

        /** A {@link java.util.Map}, see java.util.Set. */
        class Sample {
          // java.time.Instant in a line comment
          String text = "java.time.Duration in a string, with \\" an escaped quote";
          char quote = '"';
          String block = \"""
              java.util.Optional in a text block
              \""";
          Object field = request.field.NOT_A_TYPE;
          java.time.Duration inline = java.time.Duration.ZERO;
        }
        """;

    assertThat(inlineQualifiedNames(source))
        .containsExactly("line 15: java.time.Duration", "line 15: java.time.Duration");
  }

  /**
   * Each name in {@code source}'s code (not its package and import lines, comments, Javadoc, string
   * and character literals or text blocks) that is the fully qualified name of a class on the
   * classpath, with its line.
   */
  static List<String> inlineQualifiedNames(String source) {
    String code = PACKAGE_OR_IMPORT.matcher(codeOnly(source)).replaceAll(m -> blank(m.group()));
    List<String> names = new ArrayList<>();
    Matcher m = DOTTED_TYPE.matcher(code);
    while (m.find()) {
      String name = m.group(1) + m.group(2);
      if (isClass(name)) {
        names.add("line " + lineOf(code, m.start()) + ": " + name);
      }
    }
    return names;
  }

  /** {@code source} with comments and literals blanked out, keeping every line break in place. */
  private static String codeOnly(String source) {
    StringBuilder code = new StringBuilder(source.length());
    int i = 0;
    while (i < source.length()) {
      int end;
      if (source.startsWith("/*", i)) {
        end = endAfter(source, "*/", i + 2);
      } else if (source.startsWith("//", i)) {
        end = source.indexOf('\n', i) < 0 ? source.length() : source.indexOf('\n', i);
      } else if (source.startsWith("\"\"\"", i)) {
        end = endOfTextBlock(source, i + 3);
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        end = endOfLiteral(source, i);
      } else {
        code.append(source.charAt(i++));
        continue;
      }
      code.append(blank(source.substring(i, end)));
      i = end;
    }
    return code.toString();
  }

  private static int endAfter(String source, String closing, int from) {
    int at = source.indexOf(closing, from);
    return at < 0 ? source.length() : at + closing.length();
  }

  /** The end of the text block whose content starts at {@code from}, past escaped quotes. */
  private static int endOfTextBlock(String source, int from) {
    int i = from;
    while (i < source.length() && !source.startsWith("\"\"\"", i)) {
      i += source.charAt(i) == '\\' ? 2 : 1;
    }
    return Math.min(i + 3, source.length());
  }

  /** The end of the string or character literal opening at {@code start}. */
  private static int endOfLiteral(String source, int start) {
    char quote = source.charAt(start);
    int i = start + 1;
    while (i < source.length() && source.charAt(i) != quote) {
      i += source.charAt(i) == '\\' ? 2 : 1;
    }
    return Math.min(i + 1, source.length());
  }

  private static String blank(String text) {
    return text.replaceAll("[^\n]", " ");
  }

  private static boolean isClass(String name) {
    try {
      Class.forName(name, false, SourceHygieneTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
  }

  private static List<Path> javaFiles(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
