package org.ompprof.calltree;

import java.util.Objects;

/**
 * One frame of a calling context, as the stitcher resolved it. Interned by {@link FrameTable};
 * two frames are the same context element exactly when all their fields are equal.
 *
 * @param kind what the frame stands for
 * @param module file name of the module the code lies in; null when unknown (placeholders)
 * @param function function name, or the placeholder text; null when unresolved
 * @param file source file; null when unknown
 * @param line 1-based source line (the call site for callers, the sampled line for the leaf);
 *     0 when unknown
 * @param offset module-relative address; kept only when {@code function} is null, since it is
 *     then the only name the frame has (and keeping it otherwise would split one function into
 *     as many frames as it has sampled instructions)
 * @param symbol the compiler's (linkage) name when {@code function} is a name made for people
 *     (demangled C++, an outlined region shown as {@code parallel at f.c:27}, a Fortran
 *     {@code mod::proc}); null when the function is shown as the symbol names it
 */
public record Frame(FrameKind kind, String module, String function, String file, int line, long offset, String symbol) {
    public static final Frame OMP_RUNTIME = placeholder("<omp runtime>");
    public static final Frame OMP_IDLE = placeholder("<omp idle>");
    public static final Frame TRUNCATED = placeholder("<truncated>");
    public static final Frame UNATTRIBUTED = placeholder("<unattributed>");

    private static final String HOLD_RELEASED = "<hold released at ";

    public Frame {
        Objects.requireNonNull(kind, "kind");
        if (function == null && module == null)
            throw new IllegalArgumentException("a frame needs a function or a module");
        if (line < 0) throw new IllegalArgumentException("negative line " + line);
        if (function != null) offset = 0;
        if (symbol != null && (function == null || symbol.equals(function))) symbol = null;
    }

    // equals and hashCode written out, not the record's own: those link through method handles at their first call,
    // 7 ms of record's build (a fresh JVM) for this record alone

    @Override
    public boolean equals(Object o) {
        return o instanceof Frame f
                && kind == f.kind
                && line == f.line
                && offset == f.offset
                && Objects.equals(function, f.function)
                && Objects.equals(module, f.module)
                && Objects.equals(file, f.file)
                && Objects.equals(symbol, f.symbol);
    }

    @Override
    public int hashCode() {
        int h = kind.ordinal();
        h = 31 * h + Objects.hashCode(module);
        h = 31 * h + Objects.hashCode(function);
        h = 31 * h + Objects.hashCode(file);
        h = 31 * h + line;
        h = 31 * h + Long.hashCode(offset);
        return 31 * h + Objects.hashCode(symbol);
    }

    /** A frame shown as the compiler named it (no separate symbol). */
    public Frame(FrameKind kind, String module, String function, String file, int line, long offset) {
        this(kind, module, function, file, line, offset, null);
    }

    /** This frame shown as {@code display}, keeping the name it had as its symbol (unless it already has one). */
    public Frame named(String display) {
        if (function == null || display == null || display.equals(function)) return this;
        return new Frame(kind, module, display, file, line, offset, symbol != null ? symbol : function);
    }

    /** The compiler's name of the function: the symbol, or the function when it is shown as named. */
    public String symbolName() {
        return symbol != null ? symbol : function;
    }

    /** A resolved frame. */
    public static Frame of(FrameKind kind, String module, String function, String file, int line) {
        return new Frame(kind, module, function, file, line, 0);
    }

    /** A frame nothing could name: shown as {@code module+0xoffset}. */
    public static Frame unresolved(FrameKind kind, String module, long offset) {
        return new Frame(kind, Objects.requireNonNull(module, "module"), null, null, 0, offset);
    }

    /**
     * Where mutex holds ended, under the function that released them ({@code at}: {@code file:line}): blame charges
     * there the waiting for holds too short to be sampled inside.
     */
    public static Frame holdReleasedAt(String at) {
        return placeholder(HOLD_RELEASED + at + ">");
    }

    /** The {@code file:line} of a {@link #holdReleasedAt} frame; null for any other frame. */
    public String holdReleaseSite() {
        if (kind != FrameKind.PLACEHOLDER || !function.startsWith(HOLD_RELEASED) || !function.endsWith(">"))
            return null;
        return function.substring(HOLD_RELEASED.length(), function.length() - 1);
    }

    public static Frame placeholder(String text) {
        return new Frame(FrameKind.PLACEHOLDER, null, Objects.requireNonNull(text, "text"), null, 0, 0);
    }

    /** The short name flame graphs and tree views show: the function, or {@code module+0xoffset}. */
    public String name() {
        return function != null ? function : baseName(module) + "+0x" + Long.toHexString(offset);
    }

    /**
     * {@code function (file:line)} for detailed views, the short name when the source is unknown,
     * followed by {@code [symbol]} when the function is shown otherwise than the compiler named it.
     */
    public String detailedName() {
        String sym = symbol == null ? "" : " [" + symbol + "]";
        if (file == null) return name() + sym;
        return name() + " (" + file + (line > 0 ? ":" + line : "") + ")" + sym;
    }

    private static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
