package org.ompprof.unwinder.stitch;

/**
 * One element of a stitched calling-context path: code in a module, a pc in no known module, a parallel construct
 * by its call site, or a {@link Placeholder} that stands for something the stack cannot show.
 */
public sealed interface PathFrame permits PathFrame.Code, PathFrame.Unmapped, PathFrame.Construct, Placeholder {
    /**
     * A pc in a recorded module, relative to the module (an ELF virtual address). The module
     * may lack an image (then it cannot be symbolized, but it is still shown as
     * {@code module+0x...}).
     *
     * @param moduleId the recording's module id
     * @param modulePath the path the program loaded the module from
     * @param returnAddress the pc is a return address: symbolize {@link #lookupPc()}, which
     *     points into the call instruction
     */
    record Code(long moduleId, String modulePath, long relativePc, boolean returnAddress) implements PathFrame {
        public long lookupPc() {
            return returnAddress ? relativePc - 1 : relativePc;
        }

        // written out, not the record's own: those link through method handles at their first call (3 ms)

        @Override
        public boolean equals(Object o) {
            return o instanceof Code c
                    && moduleId == c.moduleId
                    && relativePc == c.relativePc
                    && returnAddress == c.returnAddress
                    && modulePath.equals(c.modulePath);
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(moduleId);
            h = 31 * h + Long.hashCode(relativePc);
            return 31 * h + (returnAddress ? 1 : 0);
        }

        @Override
        public String toString() {
            String file = modulePath.substring(modulePath.lastIndexOf('/') + 1);
            return file + "+0x" + Long.toHexString(relativePc);
        }
    }

    /** A pc that lies in no recorded module (JIT code, a corrupt return address). */
    record Unmapped(long pc) implements PathFrame {
        @Override
        public String toString() {
            return "0x" + Long.toHexString(pc);
        }
    }

    /**
     * A parallel construct, by the call that opened its region (its OMPT {@code codeptr_ra}, a return address in the
     * opening function): every path inside the region has it right under the opening context. The body the compiler
     * outlined names the region where that function is on the stack, and this gives way to it when the path is named;
     * where it is not (the outlined function ended in a tail call, as clang -O2 makes of a region around a single
     * call), this keeps the region in the path, named by the call's line.
     */
    record Construct(Code site) implements PathFrame {
        @Override
        public boolean equals(Object o) {
            return o instanceof Construct c && site.equals(c.site);
        }

        @Override
        public int hashCode() {
            return 17 * site.hashCode() + 1;
        }

        @Override
        public String toString() {
            return "<parallel at " + site + ">";
        }
    }
}
