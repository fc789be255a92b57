package org.ompprof.sampler.launch;

import java.util.List;
import java.util.regex.Pattern;

/** A command line as a POSIX shell would need it typed, for display and copy-paste. */
final class ShellQuote {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuote() {}

    static String join(List<String> argv) {
        StringBuilder s = new StringBuilder();
        for (String a : argv) {
            if (!s.isEmpty()) s.append(' ');
            s.append(quote(a));
        }
        return s.toString();
    }

    static String quote(String a) {
        if (PLAIN.matcher(a).matches()) return a;
        return "'" + a.replace("'", "'\\''") + "'";
    }
}
