package org.ompprof.unwinder.symbols;

/**
 * One function of a symbolized pc. A pc inside inlined code yields several: the innermost
 * (inlined) function first and the function the code was compiled into last, as llvm-symbolizer
 * prints them.
 *
 * @param function demangled name when it comes from debug info; the symbol table's (mangled)
 *     name otherwise; {@code libname+0xoffset} when nothing names the pc
 * @param file source file, empty when unknown
 * @param line 1-based source line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param inlined whether this function was inlined into the next frame of the list
 * @param module file name (no directory) of the module the pc lies in
 */
public record SourceFrame(String function, String file, int line, int column, boolean inlined, String module) {
    public SourceFrame {
        if (function == null || file == null || module == null) throw new NullPointerException("null field");
    }

    /** A frame named only by function (symbol tables know no lines). */
    public static SourceFrame function(String function, String module) {
        return new SourceFrame(function, "", 0, 0, false, module);
    }

    public boolean hasLine() {
        return line > 0;
    }

    SourceFrame withModule(String otherModule) {
        return otherModule.equals(module) ? this : new SourceFrame(function, file, line, column, inlined, otherModule);
    }

    @Override
    public String toString() {
        String where = hasLine() ? " " + file + ":" + line + (column > 0 ? ":" + column : "") : "";
        return function + where + (inlined ? " (inlined)" : "") + " [" + module + "]";
    }
}
