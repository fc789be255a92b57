package org.ompprof.calltree.export;

import java.util.ArrayList;
import java.util.List;

/** Reading a flame graph page in tests: its frame names are prefix-packed, so a name may not appear literally. */
public final class FlameGraphPages {
    private FlameGraphPages() {}

    /** The page's string table, unpacked as its script does: each entry reuses a prefix of the previous one. */
    public static List<String> constantPool(String html) {
        int start = html.indexOf("const cpool = [");
        int end = html.indexOf("];", start);
        List<String> out = new ArrayList<>();
        String previous = "";
        for (String line : html.substring(start, end).split("\n")) {
            if (!line.startsWith("'")) continue;
            String packed = line.substring(1, line.lastIndexOf('\''))
                    .replace("\\'", "'")
                    .replace("\\\\", "\\");
            String s = out.isEmpty() ? packed : previous.substring(0, packed.charAt(0) - ' ') + packed.substring(1);
            out.add(s);
            previous = s;
        }
        return out;
    }
}
