package org.ompprof.unwinder.cfi;

/** Which table a rule came from: they differ in CIE ids, pointer forms and who emits them. */
public enum CfiOrigin {
    /** .eh_frame: what the compilers emit by default and what libgcc unwinds with. */
    EH_FRAME,
    /** .debug_frame: emitted instead with -g -fno-asynchronous-unwind-tables. */
    DEBUG_FRAME,
    /** Read from the function's machine code, where neither table covers a pc (org.ompprof.unwinder.code). */
    CODE
}
