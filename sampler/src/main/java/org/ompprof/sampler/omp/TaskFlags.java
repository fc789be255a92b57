package org.ompprof.sampler.omp;

/**
 * Bits of {@code ompt_task_flag_t} (each constant is {@code ompt_task_} plus its name in lower
 * case, pinned against omp-tools.h by OmpVocabularyTest).
 */
public final class TaskFlags {
    public static final int INITIAL = 0x1;
    public static final int IMPLICIT = 0x2;
    public static final int EXPLICIT = 0x4;
    public static final int TARGET = 0x8;
    public static final int UNDEFERRED = 0x8000000;
    public static final int UNTIED = 0x10000000;
    public static final int FINAL = 0x20000000;
    public static final int MERGEABLE = 0x40000000;
    public static final int MERGED = 0x80000000;

    private TaskFlags() {}
}
