package org.ompprof.sampler.posix;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls Java has no API for, through the FFM linker. Each returns the libc result;
 * calls that report through errno return {@code -errno} instead of -1.
 */
@SuppressWarnings("restricted") // the point of this class
public final class Posix {
    public static final int ESRCH = 3;
    public static final int SIGHUP = 1, SIGINT = 2, SIGKILL = 9, SIGTERM = 15;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final Downcall KILL =
            new Downcall("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final Downcall ISATTY = new Downcall("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final Downcall TCGETPGRP =
            new Downcall("tcgetpgrp", FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final Downcall GETPGRP = new Downcall("getpgrp", FunctionDescriptor.of(JAVA_INT));

    private Posix() {}

    /**
     * A libc function linked on its first call: each shape of call costs the linker a generated class, 10 to
     * 30 ms at start-up, and a recording's start calls isatty alone (the others wait for a signal).
     */
    private static final class Downcall {
        private final String name;
        private final FunctionDescriptor fd;
        private final Linker.Option[] options;
        private volatile MethodHandle handle;

        Downcall(String name, FunctionDescriptor fd, Linker.Option... options) {
            this.name = name;
            this.fd = fd;
            this.options = options;
        }

        MethodHandle handle() {
            MethodHandle h = handle;
            if (h == null) handle = h = link();
            return h;
        }

        private MethodHandle link() {
            MemorySegment symbol =
                    LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc lacks " + name));
            return LINKER.downcallHandle(symbol, fd, options);
        }
    }

    /** kill(pid, sig): 0 or -errno. */
    public static int kill(long pid, int signal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) KILL.handle().invokeExact(state, (int) pid, signal);
            return rc == 0 ? 0 : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean isatty(int fd) {
        try {
            return (int) ISATTY.handle().invokeExact(fd) == 1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The foreground process group of the terminal on {@code fd}, or -errno. */
    public static int tcgetpgrp(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int pgrp = (int) TCGETPGRP.handle().invokeExact(state, fd);
            return pgrp >= 0 ? pgrp : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int getpgrp() {
        try {
            return (int) GETPGRP.handle().invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }
}
