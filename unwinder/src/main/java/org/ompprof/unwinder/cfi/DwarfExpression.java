package org.ompprof.unwinder.cfi;

import java.util.Arrays;
import java.util.HexFormat;

/** The bytes of a DWARF expression block from a CFI rule (copied out of the section); equal by content. */
public record DwarfExpression(byte[] code) {
    @Override
    public boolean equals(Object o) {
        return o instanceof DwarfExpression e && Arrays.equals(code, e.code);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(code);
    }

    @Override
    public String toString() {
        return "DwarfExpression[" + HexFormat.ofDelimiter(" ").formatHex(code) + "]";
    }
}
