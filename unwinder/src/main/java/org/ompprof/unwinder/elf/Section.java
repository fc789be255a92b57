package org.ompprof.unwinder.elf;

/** One ELF section header, with its name resolved. */
public record Section(
        int index,
        String name,
        int type,
        long flags,
        long addr,
        long offset,
        long size,
        int link,
        int info,
        long entrySize) {}
