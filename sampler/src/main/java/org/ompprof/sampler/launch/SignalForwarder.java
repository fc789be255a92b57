package org.ompprof.sampler.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.ompprof.sampler.posix.Posix;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Keeps the JVM alive on SIGINT, SIGTERM and SIGHUP while the program runs, and passes them on
 * to it, so that the recording is always written after the program ends. Ctrl-C is not passed
 * on when our process group is the terminal's foreground group: the terminal has already sent
 * it to the program, which shares that group.
 */
final class SignalForwarder implements AutoCloseable {
    private static final List<String> SIGNALS = List.of("INT", "TERM", "HUP");

    private final Supplier<Optional<Process>> child;
    private final List<Signal> installed = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private SignalForwarder(Supplier<Optional<Process>> child) {
        this.child = child;
    }

    /** Installs the handlers; {@link #close()} restores the previous ones. */
    static SignalForwarder install(Supplier<Optional<Process>> child) {
        SignalForwarder f = new SignalForwarder(child);
        for (String name : SIGNALS) {
            Signal s = new Signal(name);
            try {
                f.previous.add(Signal.handle(s, f::handle));
                f.installed.add(s);
            } catch (IllegalArgumentException e) {
                // the JVM reserves it (e.g. -Xrs): leave it alone
            }
        }
        return f;
    }

    private void handle(Signal s) {
        Optional<Process> p = child.get();
        if (p.isEmpty() || !p.get().isAlive()) return; // a reaped pid may already be someone else's
        if (s.getNumber() == Posix.SIGINT && terminalSentItToTheChildToo()) return;
        Posix.kill(p.get().pid(), s.getNumber());
    }

    private static boolean terminalSentItToTheChildToo() {
        return Posix.isatty(0) && Posix.tcgetpgrp(0) == Posix.getpgrp();
    }

    @Override
    public void close() {
        for (int i = 0; i < installed.size(); i++) Signal.handle(installed.get(i), previous.get(i));
    }
}
