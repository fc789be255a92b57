package org.ompprof.unwinder.elf;

/** One ELF program header (segment). */
public record ProgramHeader(int type, int flags, long offset, long vaddr, long fileSize, long memSize) {}
