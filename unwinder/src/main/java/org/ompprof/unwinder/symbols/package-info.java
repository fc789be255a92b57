/**
 * Symbolization of relative pcs (ELF vaddrs: runtime pc minus load bias): function names from
 * the symbol tables, source lines and inlined frames from one long-lived llvm-symbolizer.
 *
 * <p>Usage: {@code try (Symbolizer s = Symbolizer.create(images))}, then
 * {@code s.symbolize(frame)} per unwound frame, or {@code s.symbolizeAll(module, pcs)} to
 * batch the pcs of one module. {@code images} (a {@link org.ompprof.unwinder.image.ModuleImages})
 * tells where each module's bytes came from, so llvm-symbolizer can read embedded images too.
 *
 * <p>Stripped modules (distribution packages) are named as debuggers name them: the functions of
 * their MiniDebugInfo ({@code .gnu_debugdata}, {@link MiniDebugInfo}) and of a separate debug
 * file ({@link DebugFileLookup}: by build id under {@code /usr/lib/debug/.build-id/}, else by
 * CRC-checked {@code .gnu_debuglink}) join the module's own symbol table, and llvm-symbolizer
 * reads the debug file for lines. {@code -Dompprof.debugRoot=DIR} moves {@code /usr/lib/debug}.
 */
package org.ompprof.unwinder.symbols;
