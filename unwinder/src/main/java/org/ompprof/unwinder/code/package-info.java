/**
 * Unwind rows for code that has no call-frame information: crt's {@code _init}, {@code _fini} and
 * {@code __do_global_dtors_aux}, hand-written assembly. As a debugger does for such a function, its
 * machine code is followed from its entry along every path ({@link org.ompprof.unwinder.code.FunctionFrames}),
 * tracking how the stack pointer and frame pointer stand to the CFA and where callee-saved registers
 * were pushed ({@link org.ompprof.unwinder.code.StackEffects}); {@link org.ompprof.unwinder.code.CodeRows}
 * answers for a module's pcs no FDE covers. A pc gets a row only when every path to it agrees and
 * every instruction on them was understood; else the stack unwinder's frame-pointer guess stands.
 */
package org.ompprof.unwinder.code;
