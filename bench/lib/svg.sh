# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with bench/run.sh and the other files here
# bench/lib/svg.sh (sourced by bench/run.sh): draws $work/chart.tsv as an SVG bar chart with awk:
# one panel per measure, one horizontal bar per tool, each panel on its own logarithmic axis, the
# budget (where the design brief sets one) as a dashed line.

# write_svg OUT TITLE SUBTITLE
write_svg() {
  local out=$1 title=$2 subtitle=$3 tmp
  [[ -s $chart_tsv ]] || return 0
  tmp=$(mktemp "$out.XXXXXX")
  awk -F'\t' -v title="$title" -v subtitle="$subtitle" '
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
    function lg(x) { return log(x) / log(10) }
    function xpos(v) { return X0 + W * (lg(v) - llo) / (lhi - llo) }
    function color(t) {
      if (t ~ /^gq/) return "#1f77b4"
      if (t == "tsp") return "#ff7f0e"
      if (t == "slurm") return "#2ca02c"
      if (t == "gpuq") return "#9467bd"
      return "#7f7f7f"
    }
    function out(s) { body = body s "\n" }
    {
      if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1; nt[$1] = 0 }
      if (!(($1, $4) in val)) tool[$1, ++nt[$1]] = $4
      unit[$1] = $2; better[$1] = $3; val[$1, $4] = $5
      if ($6 != "-" && $6 != "") budget[$1] = $6
    }
    END {
      X0 = 330; W = 480; y = 58
      # the measures with a peer first, then those of gq alone, each in the order measured
      m = 0
      for (pass = 1; pass <= 2; pass++)
        for (i = 1; i <= n; i++) {
          g = order[i]; peers = 0
          for (k = 1; k <= nt[g]; k++) if (tool[g, k] !~ /^gq/) peers = 1
          if ((pass == 1) == (peers == 1)) shown[++m] = g
        }
      for (i = 1; i <= m; i++) {
        g = shown[i]
        lo = 1e300; hi = -1
        for (k = 1; k <= nt[g]; k++) { v = val[g, tool[g, k]] + 0; if (v > 0) { if (v < lo) lo = v; if (v > hi) hi = v } }
        if (g in budget) { b = budget[g] + 0; if (b < lo) lo = b; if (b > hi) hi = b }
        if (hi <= 0) { lo = 0.1; hi = 1 }
        # at least a fifth of a decade to the left of the smallest figure or budget
        llo = int(lg(lo) - 0.2); if (lg(lo) - 0.2 < llo) llo--
        lhi = int(lg(hi) + 0.05); if (lg(hi) + 0.05 > lhi) lhi++
        if (lhi <= llo) lhi = llo + 1
        out(sprintf("<text x=\"10\" y=\"%d\" class=\"h\">%s <tspan class=\"u\">(%s; %s is better)</tspan></text>", y + 14, esc(g), esc(unit[g]), better[g] == "high" ? "higher" : "lower"))
        top = y + 22
        yb = top
        for (k = 1; k <= nt[g]; k++) {
          t = tool[g, k]; v = val[g, t] + 0
          out(sprintf("<text x=\"%d\" y=\"%d\" class=\"t\">%s</text>", X0 - 8, yb + 12, esc(t)))
          if (v > 0) {
            w = xpos(v) - X0; if (w < 1) w = 1
            out(sprintf("<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"15\" fill=\"%s\"/>", X0, yb, w, color(t)))
            out(sprintf("<text x=\"%.1f\" y=\"%d\" class=\"v\">%s</text>", X0 + w + 4, yb + 12, esc(val[g, t])))
          } else {
            out(sprintf("<text x=\"%d\" y=\"%d\" class=\"v\">%s (not drawn on a log scale)</text>", X0 + 4, yb + 12, esc(val[g, t])))
          }
          yb += 20
        }
        # the axis: a tick and a faint grid line per power of ten
        out(sprintf("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>", X0, yb + 2, X0 + W, yb + 2))
        for (e = llo; e <= lhi; e++) {
          x = X0 + W * (e - llo) / (lhi - llo)
          out(sprintf("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>", x, top - 2, x, yb + 6))
          out(sprintf("<text x=\"%.1f\" y=\"%d\" class=\"tick\">%s</text>", x, yb + 17, (e >= 0) ? sprintf("%d", 10 ^ e + 0.5) : sprintf("%g", 10 ^ e)))
        }
        if (g in budget) {
          x = xpos(budget[g] + 0)
          out(sprintf("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"budget\"/>", x, top - 4, x, yb + 2))
          out(sprintf("<text x=\"%d\" y=\"%d\" class=\"bl\">dashed: the budget, %s %s</text>", 950, y + 14, esc(budget[g]), esc(unit[g])))
        }
        y = yb + 30
      }
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"%d\" viewBox=\"0 0 960 %d\" font-family=\"sans-serif\">\n", y + 10, y + 10
      print "<style>.h{font-size:13px;font-weight:bold}.u{font-weight:normal;fill:#555}.t{font-size:12px;text-anchor:end}.v{font-size:11px}.tick{font-size:10px;text-anchor:middle;fill:#555}.ax{stroke:#999}.grid{stroke:#ddd}.budget{stroke:#d62728;stroke-width:1.5;stroke-dasharray:5,3}.bl{font-size:11px;fill:#d62728;text-anchor:end}</style>"
      printf "<rect width=\"960\" height=\"%d\" fill=\"white\"/>\n", y + 10
      printf "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>\n", esc(title)
      printf "<text x=\"10\" y=\"40\" font-size=\"11\" fill=\"#555\">%s</text>\n", esc(subtitle)
      printf "%s", body
      print "</svg>"
    }' "$chart_tsv" >"$tmp"
  chmod 0644 "$tmp"
  mv "$tmp" "$out"
}
