package dev.gq.cli;

import dev.gq.core.report.QueueLength;
import dev.gq.core.report.UsageReport;
import java.awt.Rectangle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Writes {@code gq report --plot FILE}: the chart {@link ReportChart} builds, as PNG or SVG by the
 * file's ending, drawn headless (no display needed). Written to a new file beside the target, under
 * a random name and made with O_CREAT|O_EXCL (so a link someone planted in a shared folder is never
 * followed), then renamed over the target (which replaces a link there rather than following it):
 * a failed write never leaves half a picture. The charting library is loaded only here, on the
 * first plot: the daemon's start and every other command never load it.
 */
final class ReportPlot {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** How many random names are tried before the write is refused (a clash is all but impossible). */
  private static final int NAME_TRIES = 8;

  private ReportPlot() {}

  static void write(Path target, UsageReport r, ReportRows.Held facts, List<QueueLength.Point> queue, boolean byState) {
    if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    JFreeChart chart = ReportChart.of(r, facts, queue, byState);
    int width = 1400;
    int height = ReportChart.height(r.gpus().size());
    Path tmp = null;
    try {
      Temp t = freshTemp(target);
      tmp = t.path();
      try (OutputStream out = t.out()) {
        draw(out, chart, "svg".equals(ReportFiles.kind(target)), width, height);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      removeQuietly(tmp);
      throw new RefusedException("cannot write " + target + ": " + (e.getMessage() == null ? "write failed" : e.getMessage())
          + "; choose another path");
    }
  }

  private static void draw(OutputStream out, JFreeChart chart, boolean svg, int width, int height) throws IOException {
    if (!svg) {
      ChartUtils.writeChartAsPNG(out, chart, width, height);
      return;
    }
    SVGGraphics2D g = new SVGGraphics2D(width, height);
    chart.draw(g, new Rectangle(0, 0, width, height));
    out.write(g.getSVGDocument().getBytes(StandardCharsets.UTF_8));
  }

  /** A temporary file made for one write, and the stream open on it. */
  private record Temp(Path path, OutputStream out) {}

  /**
   * A new empty file beside {@code target} under a name nobody can guess ({@code .NAME.gq-tmp-} and
   * 16 random hex digits), made and opened at once with O_CREAT|O_EXCL: a name that exists, a link
   * included, is never opened, and another name is tried.
   */
  private static Temp freshTemp(Path target) throws IOException {
    for (int i = 0; ; i++) {
      Path tmp = target.resolveSibling("." + target.getFileName() + ".gq-tmp-" + HexFormat.of().toHexDigits(RANDOM.nextLong()));
      try {
        return new Temp(tmp, Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
      } catch (FileAlreadyExistsException e) {
        if (i + 1 >= NAME_TRIES) throw e;
      }
    }
  }

  private static void removeQuietly(Path tmp) {
    if (tmp == null) return;
    try {
      Files.deleteIfExists(tmp);
    } catch (IOException ignored) {
      // the write already failed; say that
    }
  }
}
