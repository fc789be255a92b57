package org.ompprof.calltree.build;

import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.recording.ModuleInfo;
import org.ompprof.sampler.recording.Recording;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.stack.Module;
import org.ompprof.unwinder.stitch.Stitcher;

/**
 * Names a mutex by its wait id, an address: the variable it lies in when a symbol table knows
 * it (a global omp_lock_t; a named critical's {@code .gomp_critical_user_NAME.var}), else
 * nothing. libomp 19 names criticals by a lock object it allocates, so they are known by the
 * line where they are entered instead.
 */
final class MutexNames {
    private static final String CRITICAL_PREFIX = ".gomp_critical_user_";
    private static final String CRITICAL_SUFFIX = ".var";

    private MutexNames() {}

    static String of(Recording recording, Stitcher stitcher, long address) {
        for (ModuleInfo m : recording.modules()) {
            long rel = address - m.loadBias();
            for (ModuleSegment seg : m.segments()) {
                if (rel < seg.vaddr() || rel >= seg.vaddr() + seg.memSize()) continue;
                String name = stitcher.module(m.moduleId())
                        .map(mod -> symbolAt(mod, rel))
                        .orElse(null);
                if (name != null) return pretty(name);
            }
        }
        return "";
    }

    private static String symbolAt(Module m, long rel) {
        try {
            for (Symbol s : m.elf().symbols()) {
                if (!s.isFunction() && s.size() > 0 && rel >= s.value() && rel < s.value() + s.size()) return s.name();
            }
        } catch (RuntimeException e) {
            return null; // unreadable symbols: the address will do
        }
        return null;
    }

    private static String pretty(String symbol) {
        if (symbol.startsWith(CRITICAL_PREFIX) && symbol.endsWith(CRITICAL_SUFFIX)) {
            String name = symbol.substring(CRITICAL_PREFIX.length(), symbol.length() - CRITICAL_SUFFIX.length());
            return name.isEmpty() ? "(unnamed critical)" : name;
        }
        return symbol;
    }
}
