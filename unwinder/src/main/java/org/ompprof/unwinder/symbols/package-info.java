/**
 * Symbolization of relative pcs (ELF vaddrs: runtime pc minus load bias): function names from
 * the symbol tables, source lines and inlined frames from one long-lived llvm-symbolizer.
 *
 * <p>Usage: {@code try (Symbolizer s = Symbolizer.create(images))}, then
 * {@code s.symbolize(frame)} per unwound frame, or {@code s.symbolizeAll(module, pcs)} to
 * batch the pcs of one module. {@code images} (a {@link org.ompprof.unwinder.image.ModuleImages})
 * tells where each module's bytes came from, so llvm-symbolizer can read embedded images too.
 */
package org.ompprof.unwinder.symbols;
