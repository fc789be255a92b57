package org.ompprof.calltree.build;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules that turn a compiler's symbol into the name its programmer wrote: OpenMP bodies the
 * compiler outlined become their construct ({@code parallel at heat.c:27}), Fortran's linker
 * names become {@code module::procedure}. C++ demangling is {@link Demangler}'s (a batch through
 * llvm-cxxfilt). Pure functions: any string in, never an exception.
 */
public final class DisplayNames {
    private DisplayNames() {}

    /** Whether {@code symbol} is a body a compiler outlined for an OpenMP construct (shown as the construct). */
    public static boolean isOutlined(String symbol) {
        return outlined(symbol) != null;
    }

    /** What a compiler-outlined OpenMP function stands for. */
    enum Outlined {
        /** clang {@code X.omp_outlined[.N]}, {@code .omp_outlined.}: the body a parallel (or teams) region runs. */
        PARALLEL_WRAPPER("parallel"),
        /** clang {@code X.omp_outlined_debug__[.N]}: the body proper, called by its wrapper when built with -g. */
        PARALLEL_BODY("parallel"),
        /** gcc {@code X._omp_fn.N}: an outlined body (parallel region, or a task run through GOMP_task). */
        GCC_BODY("parallel"),
        /** clang {@code .omp_task_entry.[N]}: an explicit task's entry. */
        TASK("task"),
        /** clang {@code __omp_offloading_<dev>_<file>_<function>_l<line>}: a target region's body. */
        TARGET("target"),
        /** clang {@code ...omp.reduction.reduction_func}: the combiner of a reduction clause. */
        REDUCTION("reduction");

        final String construct;

        Outlined(String construct) {
            this.construct = construct;
        }
    }

    /** In every name these rules match: most names are not, and are told so without a regular expression. */
    private static final String OMP = "omp";

    /** Numbered {@code .N}, or {@code ..N} after an anonymous one ({@code .omp_outlined..1}: a task's body at -O0). */
    private static final Pattern CLANG = Pattern.compile("(.*?)\\.omp_outlined(_debug__|\\._debug__)?(\\.\\.?\\d*)?");

    private static final Pattern GCC = Pattern.compile("(.+?)\\._omp_fn\\.\\d+");
    /** Fortran sources: fixed form ({@code .f}, {@code .for}, {@code .f77}) or free ({@code .f90} and later). */
    private static final Pattern FORTRAN_SOURCE = Pattern.compile(".*\\.(?i:f|for|ftn|f77|f90|f95|f03|f08)");
    /** An external procedure's symbol: lower case, one underscore appended (two would be a name that has one). */
    private static final Pattern FORTRAN_EXTERNAL = Pattern.compile("[a-z][a-z0-9_]*[a-z0-9]_");

    private static final Pattern TASK_ENTRY = Pattern.compile("\\.omp_task_entry\\.\\.?\\d*");
    private static final Pattern OFFLOAD =
            Pattern.compile("__omp_offloading_[0-9a-f]+_[0-9a-f]+_(.+)_l(\\d+)(_debug__)?(\\.\\d+)?");
    private static final Pattern GFORTRAN = Pattern.compile("__(.+)_MOD_(.+)");

    /** A C++ function's outlined body as its demangler prints it: {@code f(double*) (.omp_outlined_debug__)}. */
    private static final Pattern DEMANGLED_CLANG = Pattern.compile("(.*) \\((\\.omp_outlined[^)]*)\\)");

    /**
     * clang's outlined names in one form: a demangled C++ one as its symbol reads ({@code
     * f(double*).omp_outlined_debug__}).
     */
    private static String clangForm(String symbol) {
        if (!symbol.endsWith(")")) return symbol;
        Matcher m = DEMANGLED_CLANG.matcher(symbol);
        return m.matches() ? m.group(1) + m.group(2) : symbol;
    }

    /** The kind of outlined OpenMP function {@code symbol} is, or null for any other name. */
    static Outlined outlined(String symbol) {
        if (symbol == null || !symbol.contains(OMP)) return null;
        symbol = clangForm(symbol);
        if (symbol.endsWith(".omp.reduction.reduction_func")) return Outlined.REDUCTION;
        Matcher m = CLANG.matcher(symbol);
        if (m.matches()) return m.group(2) != null ? Outlined.PARALLEL_BODY : Outlined.PARALLEL_WRAPPER;
        if (TASK_ENTRY.matcher(symbol).matches()) return Outlined.TASK;
        if (OFFLOAD.matcher(symbol).matches()) return Outlined.TARGET;
        if (GCC.matcher(symbol).matches()) return Outlined.GCC_BODY;
        return null;
    }

    /**
     * The function clang outlined a body from ({@code main} for {@code main.omp_outlined_debug__.3}); "" for anonymous
     * ones; null otherwise.
     */
    static String outlinedFrom(String symbol) {
        if (symbol == null || !symbol.contains(OMP)) return null;
        Matcher m = CLANG.matcher(clangForm(symbol));
        return m.matches() ? m.group(1) : null;
    }

    /**
     * Whether {@code symbol} is clang's outlined body of a target region's entry
     * ({@code __omp_offloading_..._l15_debug__.omp_outlined}): the region's body, a target construct.
     */
    static boolean inTarget(String symbol) {
        String from = outlinedFrom(symbol);
        return from != null && OFFLOAD.matcher(from).matches();
    }

    /** The source line an offloading entry's name carries ({@code _l27}), 0 when none. */
    static int offloadLine(String symbol) {
        Matcher m = symbol == null ? null : OFFLOAD.matcher(symbol);
        if (m == null || !m.matches()) return 0;
        try {
            return Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * {@code parallel at heat.c:27}: the construct, the file's base name and the line when known
     * ({@code parallel at heat.c} without a line, {@code parallel in main} without a file; a Fortran procedure as its
     * frames are named, {@code parallel in solver::relax}).
     */
    static String construct(Outlined kind, String symbol, String file, int line) {
        if ((kind == Outlined.PARALLEL_WRAPPER || kind == Outlined.PARALLEL_BODY) && inTarget(symbol)) {
            String entry = outlinedFrom(symbol);
            return construct(Outlined.TARGET, entry, file, line > 0 ? line : offloadLine(entry));
        }
        String where = file == null || file.isEmpty() ? null : file.substring(file.lastIndexOf('/') + 1);
        if (where != null) return kind.construct + " at " + where + (line > 0 ? ":" + line : "");
        String from = kind == Outlined.TARGET ? offloadFunction(symbol) : outlinedFrom(symbol);
        if (from == null) {
            Matcher g = GCC.matcher(symbol);
            if (g.matches()) from = g.group(1);
        }
        String fortran = fortran(from, null); // as the program's frames name it: gfortran outlines modules' loops
        String in = from == null || from.isEmpty() ? "" : " in " + (fortran != null ? fortran : from);
        return kind.construct + in + (line > 0 ? " at line " + line : "");
    }

    /**
     * A parallel construct by its call site: {@code parallel at bt.c:205}, {@code parallel in adi} without a file (the
     * calling function as frames name it), {@code parallel} without either.
     */
    static String parallelAt(String file, int line, String function) {
        String kind = Outlined.PARALLEL_WRAPPER.construct;
        if (file != null && !file.isEmpty())
            return kind + " at " + file.substring(file.lastIndexOf('/') + 1) + (line > 0 ? ":" + line : "");
        if (function == null || function.isEmpty() || function.equals("??")) return kind;
        String fortran = fortran(function, null);
        return kind + " in " + (fortran != null ? fortran : function);
    }

    private static String offloadFunction(String symbol) {
        Matcher m = OFFLOAD.matcher(symbol);
        return m.matches() ? m.group(1) : null;
    }

    /**
     * Fortran's linker names as the program writes them: gfortran {@code __solver_MOD_relax} is
     * {@code solver::relax}; flang {@code _QMsolverPrelax} is {@code solver::relax}, {@code _QPrelax}
     * is {@code relax} and {@code _QQmain} is {@code program}, as is gfortran's {@code MAIN__}
     * (the program's own name, where the debug info gives it, comes through {@code programName}).
     * Null when {@code symbol} is no Fortran name.
     *
     * @param programName the main program's name if known (else null)
     */
    static String fortran(String symbol, String programName) {
        if (symbol == null || symbol.isEmpty()) return null;
        if (symbol.equals("MAIN__") || symbol.equals("_QQmain"))
            return programName != null && !programName.isEmpty() ? programName : "program";
        Matcher m = GFORTRAN.matcher(symbol);
        if (m.matches() && !m.group(1).isEmpty() && !m.group(2).isEmpty()) return m.group(1) + "::" + m.group(2);
        if (symbol.startsWith("_Q")) return flang(symbol);
        return null;
    }

    /**
     * A gfortran external procedure's name without the underscore its symbol appends ({@code adi_} is {@code adi}),
     * when its source file is Fortran's; null for any other.
     */
    static String fortranExternal(String symbol, String file) {
        if (symbol == null || file == null || !FORTRAN_SOURCE.matcher(file).matches()) return null;
        return FORTRAN_EXTERNAL.matcher(symbol).matches() ? symbol.substring(0, symbol.length() - 1) : null;
    }

    /**
     * flang's {@code _Q} names: {@code M}odule, {@code F} host procedure, {@code P} procedure parts; null for the rest.
     */
    private static String flang(String symbol) {
        String rest = symbol.substring(2);
        StringBuilder out = new StringBuilder();
        int i = 0;
        boolean any = false;
        while (i < rest.length()) {
            char tag = rest.charAt(i);
            if (tag != 'M' && tag != 'F' && tag != 'P') return null;
            int j = i + 1;
            while (j < rest.length() && "MFP".indexOf(rest.charAt(j)) < 0) j++;
            String part = rest.substring(i + 1, j);
            // flang spells names in lower case: an upper-case letter is a tag this does not know
            if (part.isEmpty()
                    || !part.chars()
                            .allMatch(c -> c < 128 && (Character.isLowerCase(c) || Character.isDigit(c) || c == '_')))
                return null;
            if (any) out.append("::");
            out.append(part);
            any = true;
            i = j;
        }
        return any ? out.toString() : null;
    }

    /** An Itanium C++ name llvm-cxxfilt can demangle ({@code _Z...}, no whitespace). */
    /**
     * A demangled C++ name without its parameters ({@code EvalEOSForElems} for {@code EvalEOSForElems(Domain&, int)},
     * {@code ns::A<int>::run} for {@code ns::A<int>::run() const}): what names a construct's function.
     */
    static String bareName(String demangled) {
        int depth = 0;
        for (int i = 0; i < demangled.length(); i++) {
            char c = demangled.charAt(i);
            if (c == '<') depth++;
            else if (c == '>') depth--;
            else if (c == '(' && depth == 0 && i > 0 && !demangled.startsWith("operator", lastWord(demangled, i)))
                return demangled.substring(0, i);
        }
        return demangled;
    }

    private static int lastWord(String s, int end) {
        int i = end;
        while (i > 0 && s.charAt(i - 1) != ':' && s.charAt(i - 1) != ' ') i--;
        return i;
    }

    static boolean itanium(String symbol) {
        if (symbol == null || symbol.length() < 3 || !symbol.startsWith("_Z")) return false;
        for (int i = 0; i < symbol.length(); i++) if (Character.isWhitespace(symbol.charAt(i))) return false;
        return true;
    }
}
