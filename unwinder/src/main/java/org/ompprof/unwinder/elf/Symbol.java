package org.ompprof.unwinder.elf;

/** A defined symbol: {@code type} 2 is a function (STT_FUNC), {@code bind} 0 local, 1 global, 2 weak. */
public record Symbol(String name, long value, long size, int type, int bind, int sectionIndex) {
    public static final int STT_FUNC = 2;

    public boolean isFunction() {
        return type == STT_FUNC;
    }

    /**
     * A function's name without its symbol version ({@code clock_nanosleep@@GLIBC_2.17} is {@code clock_nanosleep},
     * as a debug file's .symtab spells it): callers write the name. A PLT stub keeps its {@code @plt}.
     */
    public static String unversioned(String name) {
        int at = name.indexOf('@');
        return at <= 0 || name.endsWith("@plt") ? name : name.substring(0, at);
    }
}
