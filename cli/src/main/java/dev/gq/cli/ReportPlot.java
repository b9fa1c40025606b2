package dev.gq.cli;

import dev.gq.core.report.QueueLength;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageReport;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * Writes {@code gq report --plot FILE}: the chart {@link ReportChart} builds, as PNG or SVG by the
 * file's ending, drawn headless (no display needed). Written beside the target and moved over it,
 * so a failed write never leaves half a picture. The charting library is loaded only here, on the
 * first plot: the daemon's start and every other command never load it.
 */
final class ReportPlot {
  private ReportPlot() {}

  static void write(Path target, UsageReport r, UsageFacts facts, List<QueueLength.Point> queue, boolean byState) {
    if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    JFreeChart chart = ReportChart.of(r, facts, queue, byState);
    int width = 1400;
    int height = ReportChart.height(r.gpus().size());
    Path tmp = target.resolveSibling("." + target.getFileName() + ".gq-tmp");
    try {
      if ("svg".equals(ReportFiles.kind(target))) {
        SVGGraphics2D g = new SVGGraphics2D(width, height);
        chart.draw(g, new Rectangle(0, 0, width, height));
        Files.writeString(tmp, g.getSVGDocument());
      } else {
        ChartUtils.saveChartAsPNG(tmp.toFile(), chart, width, height);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // the write already failed; say that
      }
      throw new RefusedException("cannot write " + target + ": " + (e.getMessage() == null ? "write failed" : e.getMessage())
          + "; choose another path");
    }
  }
}
