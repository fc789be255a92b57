/**
 * Unwinding of recorded samples (registers rip, rsp, rbp and a stack snapshot starting at rsp)
 * into call chains, through the CFI of the modules of an address space.
 *
 * <p>Usage: build {@link org.ompprof.unwinder.stack.Module}s (ELF image, load bias), an
 * {@link org.ompprof.unwinder.stack.AddressSpace} of them, and per thread a
 * {@link org.ompprof.unwinder.stack.StackUnwinder}; then for each sample
 * {@code unwinder.unwind(new Registers(rip, rsp, rbp), new StackSnapshot(rsp, bytes))}.
 */
package org.ompprof.unwinder.stack;
