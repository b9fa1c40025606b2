package dev.gq.actors.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The main code of every module, as the architecture rules read it: the compiled classes under
 * {@code dev.gq} (from the daemon's test class path, which holds every module; tests left out) and
 * the source files under each module's {@code src/main}. Read once per test run.
 */
final class MainCode {
  private MainCode() {}

  private static JavaClasses classes;

  /** The compiled main classes of every module. */
  static synchronized JavaClasses classes() {
    if (classes == null) {
      classes = new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages("dev.gq");
    }
    return classes;
  }

  /** The checkout: the folder above this module that holds the parent pom and every module. */
  static Path root() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("pom.xml")) && Files.isDirectory(p.resolve("core/src/main"))
          && Files.isDirectory(p.resolve("actors/src/main"))) {
        return p;
      }
    }
    throw new IllegalStateException("no gq checkout above " + Path.of("").toAbsolutePath());
  }

  /** Every file under a module's {@code src/main} whose name ends with one of {@code endings}, sorted. */
  static List<Path> sources(String... endings) {
    Path root = root();
    try (Stream<Path> modules = Files.list(root)) {
      return modules.map(m -> m.resolve("src/main")).filter(Files::isDirectory)
          .flatMap(MainCode::walk)
          .filter(p -> Stream.of(endings).anyMatch(e -> p.getFileName().toString().endsWith(e)))
          .sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every Java file of the checkout, main, test or benchmark. */
  static List<Path> javaFilesAnywhere() {
    try (Stream<Path> files = Files.walk(root())) {
      return files.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/target/")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code file} relative to the checkout, for messages. */
  static String shown(Path file) {
    return root().relativize(file).toString();
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Stream<Path> walk(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
