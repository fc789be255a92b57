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
record Named(
        StitchedSample sample,
        List<String> names,
        List<Boolean> code,
        List<Boolean> inRuntime,
        List<Boolean> inProgram) {
    private static final Map<ElfFile, List<Symbol>> FUNCTIONS = new ConcurrentHashMap<>();

    static Named of(Stitcher stitcher, ModuleRoles view, StitchedSample s) {
        List<String> names = new ArrayList<>();
        List<Boolean> codes = new ArrayList<>(), runtime = new ArrayList<>(), program = new ArrayList<>();
        List<PathFrame> path = s.pathRootFirst();
        for (int i = 0; i < path.size(); i++) {
            PathFrame f = path.get(i);
            if (f instanceof PathFrame.Construct && givesWay(stitcher, path, i)) continue;
            names.add(name(stitcher, f));
            boolean code = f instanceof PathFrame.Code;
            codes.add(code);
            runtime.add(code && view.isRuntime(((PathFrame.Code) f).moduleId()));
            program.add(code && view.isProgram(((PathFrame.Code) f).moduleId()));
        }
        return new Named(s, List.copyOf(names), List.copyOf(codes), List.copyOf(runtime), List.copyOf(program));
    }

    /**
     * Whether the construct at {@code i} gives way as the profile's names make it: to the outlined body right under it
     * (clang's {@code .omp_outlined}, gcc's {@code ._omp_fn.N}), or to a placeholder. It reads {@code <parallel>} where
     * it stays: the body a tail call away.
     */
    private static boolean givesWay(Stitcher stitcher, List<PathFrame> path, int i) {
        if (i + 1 == path.size() || path.get(i + 1) instanceof Placeholder) return true;
        String next = name(stitcher, path.get(i + 1));
        return next.contains("omp_outlined") || next.contains("._omp_fn.");
    }

    static String name(Stitcher stitcher, PathFrame f) {
        if (f instanceof PathFrame.Construct) return "<parallel>";
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
        if (!code.get(i)) return false;
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
