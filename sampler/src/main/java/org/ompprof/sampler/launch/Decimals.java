package org.ompprof.sampler.launch;

import java.util.Locale;

/**
 * Numbers as record's messages and metadata write them (1,234,567 and 931.5), the same text as Locale.ROOT's
 * {@code %,d} and {@code %.Nf}, without java.util.Formatter: its first use loads the locale data, about 10 ms at the
 * program's end, before the profile build can begin.
 */
final class Decimals {
    /**
     * From here on, {@code |x| * 10^decimals} may round otherwise than x's decimal digits do (the product's own
     * rounding error nears half a unit): the Formatter writes those, as rare in record's messages as they are large.
     */
    private static final double EXACT_LIMIT = 1e9;

    private Decimals() {}

    /** {@code n} with a comma between groups of three digits. */
    static String grouped(long n) {
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        StringBuilder b = new StringBuilder(digits.length() + digits.length() / 3);
        b.append(digits, 0, sign);
        for (int i = sign; i < digits.length(); i++) {
            if (i > sign && (digits.length() - i) % 3 == 0) b.append(',');
            b.append(digits.charAt(i));
        }
        return b.toString();
    }

    /** {@code x} with {@code decimals} digits after the point (0 to 6), rounded half up. */
    static String fixed(double x, int decimals) {
        if (decimals < 0 || decimals > 6) throw new IllegalArgumentException("decimals " + decimals);
        if (Double.isNaN(x) || Double.isInfinite(x)) return Double.toString(x);
        long scale = (long) Math.pow(10, decimals);
        double magnitude = Math.abs(x);
        if (magnitude * scale >= EXACT_LIMIT) return String.format(Locale.ROOT, "%." + decimals + "f", x);
        long units = Math.round(magnitude * scale);
        String fraction = Long.toString(units % scale + scale).substring(1); // leading zeros kept
        String sign = x < 0 || (x == 0 && 1 / x < 0) ? "-" : "";
        return sign + (units / scale) + (decimals == 0 ? "" : "." + fraction);
    }
}
