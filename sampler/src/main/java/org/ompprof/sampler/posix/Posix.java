package org.ompprof.sampler.posix;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * The few libc calls Java has no API for, through the FFM linker. Each returns the libc result;
 * calls that report through errno return {@code -errno} instead of -1.
 */
@SuppressWarnings("restricted") // the point of this class
public final class Posix {
    public static final int ENOSPC = 28;
    public static final int ESRCH = 3;
    public static final int SIGHUP = 1, SIGINT = 2, SIGKILL = 9, SIGTERM = 15;
    private static final int O_RDWR = 02, O_CLOEXEC = 02000000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPEN = downcall(
            "open",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            CAPTURE_ERRNO,
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle POSIX_FALLOCATE =
            downcall("posix_fallocate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle KILL =
            downcall("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle ISATTY = downcall("isatty", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle TCGETPGRP =
            downcall("tcgetpgrp", FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle GETPGRP = downcall("getpgrp", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle STRERROR = downcall("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private Posix() {}

    private static MethodHandle downcall(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment symbol =
                LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc lacks " + name));
        return LINKER.downcallHandle(symbol, fd, options);
    }

    /** open(path, O_RDWR | O_CLOEXEC): an fd, or -errno. */
    public static int openReadWrite(Path path) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path.toString()), O_RDWR | O_CLOEXEC, 0);
            return fd >= 0 ? fd : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** posix_fallocate: 0 or an error number (it does not use errno). */
    public static int posixFallocate(int fd, long offset, long length) {
        try {
            return (int) POSIX_FALLOCATE.invokeExact(fd, offset, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** kill(pid, sig): 0 or -errno. */
    public static int kill(long pid, int signal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) KILL.invokeExact(state, (int) pid, signal);
            return rc == 0 ? 0 : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean isatty(int fd) {
        try {
            return (int) ISATTY.invokeExact(fd) == 1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The foreground process group of the terminal on {@code fd}, or -errno. */
    public static int tcgetpgrp(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int pgrp = (int) TCGETPGRP.invokeExact(state, fd);
            return pgrp >= 0 ? pgrp : -errno(state);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int getpgrp() {
        try {
            return (int) GETPGRP.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The C library's text for an error number. */
    public static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(1024).getString(0);
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
