package org.ompprof.unwinder.stack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The modules of one process, mapping a runtime pc to the module whose code contains it. Libraries loaded in turn at
 * one place (dlopen, dlclose, dlopen) are one module there, and the others {@link Transient}s, each for the time it
 * was mapped: a pc at a known time is theirs in that time.
 */
public final class AddressSpace {
    /** A module mapped only from {@code fromNs} to {@code toNs}, where another is the place's module otherwise. */
    public record Transient(Module module, long fromNs, long toNs) {
        boolean holds(long pc, long timeNs) {
            if (timeNs < fromNs || timeNs >= toNs) return false;
            for (AddressRange r : module.ranges()) if (pc >= r.start() && pc < r.end()) return true;
            return false;
        }
    }

    private final List<Module> modules;
    private final long[] starts;
    private final long[] ends;
    private final Module[] owners;
    private final Transient[] transients;
    /** Where any transient's code lies, between these: most pcs of a sample are not looked for among them. */
    private final long transientsLo, transientsHi;

    private AddressSpace(List<Module> modules, List<Transient> transients) {
        this.modules = List.copyOf(modules);
        this.transients = transients.toArray(Transient[]::new);
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (Transient t : transients)
            for (AddressRange r : t.module().ranges()) {
                lo = Math.min(lo, r.start());
                hi = Math.max(hi, r.end());
            }
        transientsLo = lo;
        transientsHi = hi;
        record Entry(AddressRange range, Module module) {}
        List<Entry> entries = new ArrayList<>();
        for (Module m : modules) {
            for (AddressRange r : m.ranges()) entries.add(new Entry(r, m));
        }
        entries.sort(Comparator.comparingLong(e -> e.range().start()));
        starts = new long[entries.size()];
        ends = new long[entries.size()];
        owners = new Module[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (i > 0 && e.range().start() < ends[i - 1]) {
                throw new IllegalArgumentException(e.module() + " overlaps " + owners[i - 1] + " at 0x"
                        + Long.toHexString(e.range().start()));
            }
            starts[i] = e.range().start();
            ends[i] = e.range().end();
            owners[i] = e.module();
        }
    }

    /** @throws IllegalArgumentException if two modules' code ranges overlap */
    public static AddressSpace of(List<Module> modules) {
        return new AddressSpace(modules, List.of());
    }

    /** @throws IllegalArgumentException if two of {@code modules}' code ranges overlap (transients may) */
    public static AddressSpace of(List<Module> modules, List<Transient> transients) {
        return new AddressSpace(modules, transients);
    }

    public List<Module> modules() {
        return modules;
    }

    /**
     * The module whose code contains {@code pc} at {@code timeNs} (a transient mapped then, else the place's module),
     * or null; a time of 0 is unknown.
     */
    public Module find(long pc, long timeNs) {
        if (timeNs != 0 && pc >= transientsLo && pc < transientsHi)
            for (Transient t : transients) if (t.holds(pc, timeNs)) return t.module();
        return find(pc);
    }

    /** The module whose code contains {@code pc}, or null. */
    public Module find(long pc) {
        int i = Arrays.binarySearch(starts, pc);
        if (i < 0) i = -i - 2;
        return i >= 0 && pc < ends[i] ? owners[i] : null;
    }
}
