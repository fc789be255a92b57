package org.ompprof.sampler.launch;

import java.util.Locale;
import org.ompprof.sampler.UserError;

/**
 * A duration on the command line: a whole number with a unit, {@code ns}, {@code us}, {@code ms} or {@code s} ({@code
 * 10ms}).
 */
public final class DurationArg {
    private DurationArg() {}

    /** Nanoseconds, at least 1; {@code command} and {@code option} name the argument in the one-line error. */
    public static long parseNs(String command, String option, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT).replace("_", "");
        int digits = 0;
        while (digits < v.length() && Character.isDigit(v.charAt(digits))) digits++;
        long unit = switch (v.substring(digits)) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            default -> 0L;
        };
        if (digits == 0 || unit == 0 || digits > 12) {
            throw new UserError(
                    command + ": " + option + " takes a duration such as 10ms, 500us or 1s, not '" + value + "'");
        }
        long n = Long.parseLong(v.substring(0, digits));
        if (n == 0) throw new UserError(command + ": " + option + " must be longer than 0");
        return Math.multiplyExact(n, unit);
    }

    /** As a user would write it: the largest unit that divides it ({@code 10ms}). */
    public static String format(long ns) {
        if (ns != 0 && ns % 1_000_000_000L == 0) return ns / 1_000_000_000L + "s";
        if (ns != 0 && ns % 1_000_000L == 0) return ns / 1_000_000L + "ms";
        if (ns != 0 && ns % 1_000L == 0) return ns / 1_000L + "us";
        return ns + "ns";
    }
}
