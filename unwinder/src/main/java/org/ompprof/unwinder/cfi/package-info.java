/**
 * DWARF call-frame information of x86-64 ELF modules: .eh_frame_hdr, .eh_frame and
 * .debug_frame parsing, the DW_CFA interpreter and the DWARF expression subset used in CFI.
 *
 * <p>Entry point: {@link org.ompprof.unwinder.cfi.ModuleCfi#of(org.ompprof.unwinder.elf.ElfFile)}
 * and {@link org.ompprof.unwinder.cfi.ModuleCfi#rowFor(long)}, which answers, for an ELF
 * virtual address, with an {@link org.ompprof.unwinder.cfi.UnwindRow}, a
 * {@link org.ompprof.unwinder.cfi.NoCfi} or a {@link org.ompprof.unwinder.cfi.BadCfi}. Damaged
 * input never escapes as an exception from there; every loop is bounded.
 */
package org.ompprof.unwinder.cfi;
