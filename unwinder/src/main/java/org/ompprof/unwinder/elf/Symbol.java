package org.ompprof.unwinder.elf;

/** A defined symbol: {@code type} 2 is a function (STT_FUNC), {@code bind} 0 local, 1 global, 2 weak. */
public record Symbol(String name, long value, long size, int type, int bind, int sectionIndex) {
    public static final int STT_FUNC = 2;

    public boolean isFunction() {
        return type == STT_FUNC;
    }
}
