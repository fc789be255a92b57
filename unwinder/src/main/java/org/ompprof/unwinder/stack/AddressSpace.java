package org.ompprof.unwinder.stack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** The modules of one process, mapping a runtime pc to the module whose code contains it. */
public final class AddressSpace {
    private final List<Module> modules;
    private final long[] starts;
    private final long[] ends;
    private final Module[] owners;

    private AddressSpace(List<Module> modules) {
        this.modules = List.copyOf(modules);
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
        return new AddressSpace(modules);
    }

    public List<Module> modules() {
        return modules;
    }

    /** The module whose code contains {@code pc}, or null. */
    public Module find(long pc) {
        int i = Arrays.binarySearch(starts, pc);
        if (i < 0) i = -i - 2;
        return i >= 0 && pc < ends[i] ? owners[i] : null;
    }
}
