package org.ompprof.unwinder.stack;

import java.util.OptionalLong;

/** The registers a sample records: where the thread was, the two stack registers, and rbx where it was kept. */
public record Registers(long rip, long rsp, long rbp, OptionalLong rbx) {
    public Registers {
        java.util.Objects.requireNonNull(rbx, "rbx");
    }

    public Registers(long rip, long rsp, long rbp) {
        this(rip, rsp, rbp, OptionalLong.empty());
    }
}
