package org.ompprof.unwinder.stitch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.stack.Module;

/**
 * A stitched sample with its path as function names, by the ELF symbol tables (just enough
 * symbolization for tests). Code with no symbol reads {@code file+0x...}; placeholders read
 * as their labels.
 */
record Named(StitchedSample sample, List<String> names, List<Boolean> inRuntime, List<Boolean> inProgram) {
    private static final Map<ElfFile, List<Symbol>> FUNCTIONS = new ConcurrentHashMap<>();

    static Named of(Stitcher stitcher, ModuleRoles view, StitchedSample s) {
        List<String> names = new ArrayList<>();
        List<Boolean> runtime = new ArrayList<>(), program = new ArrayList<>();
        for (PathFrame f : s.pathRootFirst()) {
            names.add(name(stitcher, f));
            boolean code = f instanceof PathFrame.Code;
            runtime.add(code && view.isRuntime(((PathFrame.Code) f).moduleId()));
            program.add(code && view.isProgram(((PathFrame.Code) f).moduleId()));
        }
        return new Named(s, List.copyOf(names), List.copyOf(runtime), List.copyOf(program));
    }

    static String name(Stitcher stitcher, PathFrame f) {
        if (!(f instanceof PathFrame.Code c)) return f.toString();
        Module m = stitcher.module(c.moduleId()).orElse(null);
        if (m == null) return c.toString();
        List<Symbol> functions = FUNCTIONS.computeIfAbsent(
                m.elf(),
                e -> e.symbols().stream()
                        .filter(Symbol::isFunction)
                        .sorted(Comparator.comparingLong(Symbol::value))
                        .toList());
        Symbol best = null;
        for (Symbol s : functions) {
            if (s.value() > c.lookupPc()) break;
            if (c.lookupPc() < s.value() + Math.max(1, s.size())) best = s;
        }
        return best == null ? c.toString() : best.name();
    }

    /**
     * The names without the system code at the leaf (the C library and vDSO under
     * clock_gettime, the program's PLT stubs): what the user's code called last.
     */
    List<String> userNames() {
        int end = names.size();
        while (end > 0 && isSystemLeaf(end - 1)) end--;
        return names.subList(0, end);
    }

    private boolean isSystemLeaf(int i) {
        if (!(sample.pathRootFirst().get(i) instanceof PathFrame.Code)) return false;
        if (inRuntime.get(i)) return false;
        return !inProgram.get(i) || names.get(i).contains("+0x");
    }

    boolean anyRuntimeFrame() {
        return inRuntime.contains(true);
    }

    @Override
    public String toString() {
        return sample.kind() + " t" + sample.threadSeq() + " state=0x" + Integer.toHexString(sample.state()) + " "
                + String.join(";", names);
    }
}
