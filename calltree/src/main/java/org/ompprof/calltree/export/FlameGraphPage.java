package org.ompprof.calltree.export;

import org.ompprof.calltree.MetricUnit;

/**
 * Adapts the converter's page, written for Java profiles, to ours: a legend naming our frame
 * kinds, values in the metric's unit, and a document title. Each change looks for the exact
 * text of the template; if a converter release changes that text, the change is skipped and
 * the page stays as the converter made it (still correct, only less well labelled).
 */
final class FlameGraphPage {
    private static final String LEGEND_START = "<dl class='frames'>\n\t<dt>Frame types</dt>";
    private static final String LEGEND_END = "<dl class='hotkeys'>";
    private static final String LEGEND = """
            <dl class='frames'>
            \t<dt>Frame types</dt>
            \t<dd style='background-color: #50e150'>User code</dd>
            \t<dd style='background-color: #50cccc'>Inlined</dd>
            \t<dd style='background-color: #c8c83c'>OpenMP runtime</dd>
            \t<dd style='background-color: #e17d00'>Placeholder</dd>
            </dl>
            <dl class='frames'>
            \t<dt>Search</dt>
            \t<dd style='background-color: #ee00ee'>Matches regexp</dd>
            </dl>
            """;
    private static final String DIFF_LEGEND = """
            <dl class='frames'>
            \t<dt>Change from the base profile (own value)</dt>
            \t<dd style='background-color: rgb(255,96,96)'>Grew</dd>
            \t<dd style='background-color: rgb(96,96,255)'>Shrank</dd>
            \t<dd style='background-color: #e0e0e0'>Unchanged</dd>
            \t<dd style='background-color: #ffdd33'>Not in the base</dd>
            </dl>
            <dl class='frames'>
            \t<dt>Search</dt>
            \t<dd style='background-color: #ee00ee'>Matches regexp</dd>
            </dl>
            """;
    private static final String CHARSET = "<meta charset='utf-8'>";

    private FlameGraphPage() {}

    static String adapt(String html, String title, MetricUnit unit) {
        return adapt(html, title, unit, LEGEND);
    }

    /** As {@link #adapt} for a differential graph, whose colors say how a frame changed. */
    static String adaptDiff(String html, String title, MetricUnit unit) {
        return adapt(html, title, unit, DIFF_LEGEND);
    }

    private static String adapt(String html, String title, MetricUnit unit, String legend) {
        html = replaceLegend(html, legend);
        html = html.replace(CHARSET, CHARSET + "\n<title>" + escapeHtml(title) + "</title>");
        if (unit != MetricUnit.COUNT) {
            html = html.replace("'1 sample'", "'1 " + unit.symbol() + "'")
                    .replace("+ ' samples'", "+ ' " + unit.symbol() + "'");
        }
        return html;
    }

    private static String replaceLegend(String html, String legend) {
        int start = html.indexOf(LEGEND_START);
        int end = start < 0 ? -1 : html.indexOf(LEGEND_END, start);
        return end < 0 ? html : html.substring(0, start) + legend + html.substring(end);
    }

    static String escapeHtml(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("'", "&#39;")
                .replace("\"", "&quot;");
    }
}
