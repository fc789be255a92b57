package org.ompprof.sampler.launch;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.sampler.UserError;
import org.ompprof.sampler.wire.Wire;

/**
 * The signal the agent samples with ({@code --signal}), and what to tell the user when the
 * program stood in its way: its own handler, a handler set over the agent's, the signal blocked
 * in a thread, or its own timers (setitimer) and kills sending the same signal.
 */
public final class SamplingSignal {
    static final int SIGPROF = 27;
    private static final int SIGUSR1 = 10, SIGUSR2 = 12;
    /** glibc's SIGRTMIN: 32 and 33 are taken by its threads library. */
    private static final int SIGRTMIN = 34, SIGRTMAX = 64;

    private static final String ADVICE = "record with --signal SIGRTMIN+4 (or another signal the program does not use)";

    private SamplingSignal() {}

    /** SIGPROF, SIGUSR1, SIGUSR2, SIGRTMIN+N, SIGRTMAX-N (with or without SIG), or a number. */
    public static int parse(String v) {
        String s = v.toUpperCase(java.util.Locale.ROOT);
        if (!s.startsWith("SIG") && !s.isEmpty() && !Character.isDigit(s.charAt(0))) s = "SIG" + s;
        int n;
        try {
            n = switch (s) {
                case "SIGPROF" -> SIGPROF;
                case "SIGUSR1" -> SIGUSR1;
                case "SIGUSR2" -> SIGUSR2;
                default ->
                    s.startsWith("SIGRTMIN")
                            ? SIGRTMIN + offset(s.substring(8), 1)
                            : s.startsWith("SIGRTMAX") ? SIGRTMAX + offset(s.substring(8), -1) : Integer.parseInt(s);
            };
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n == SIGPROF || n == SIGUSR1 || n == SIGUSR2 || (n >= SIGRTMIN && n <= SIGRTMAX)) return n;
        throw new UserError(
                "record: --signal must be SIGPROF, SIGUSR1, SIGUSR2 or SIGRTMIN+N up to SIGRTMAX, not '" + v + "'");
    }

    private static int offset(String rest, int sign) {
        if (rest.isEmpty()) return 0;
        char c = rest.charAt(0);
        if ((c == '+' && sign > 0) || (c == '-' && sign < 0)) return sign * Integer.parseInt(rest.substring(1));
        throw new NumberFormatException(rest);
    }

    static String name(int signal) {
        return switch (signal) {
            case SIGPROF -> "SIGPROF";
            case SIGUSR1 -> "SIGUSR1";
            case SIGUSR2 -> "SIGUSR2";
            default -> "SIGRTMIN+" + (signal - SIGRTMIN);
        };
    }

    /** One line per problem the agent reported; empty when sampling went as it should. */
    public static List<String> problems(int signal, int bits, long foreign) {
        String sig = name(signal);
        List<String> out = new ArrayList<>();
        if ((bits & Wire.SIGNAL_TAKEN) != 0) {
            out.add("the program has its own " + sig + " handler, which was left alone: nothing was sampled; "
                    + ADVICE);
        }
        if ((bits & Wire.SIGNAL_REPLACED) != 0) {
            out.add("the program replaced ompprof's " + sig + " handler while it ran: samples after that are missing; "
                    + ADVICE);
        }
        if ((bits & Wire.SIGNAL_BLOCKED) != 0) {
            out.add("some threads had " + sig + " blocked: they were not sampled while it was (a sample left pending "
                    + "arrives when it is unblocked and stands for the time before, charged to where that happens)");
        }
        if (foreign > 0) {
            out.add(String.format(
                    java.util.Locale.ROOT,
                    "%,d %s signals that ompprof did not send (the program's setitimer or kill) "
                            + "reached ompprof's handler instead of the program's; %s",
                    foreign,
                    sig,
                    ADVICE));
        }
        return out;
    }
}
