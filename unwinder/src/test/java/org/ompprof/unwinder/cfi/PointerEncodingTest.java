package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PointerEncodingTest {
    private static final long SECTION = 0x10000, TEXT = 0x20000, DATA = 0x30000;
    private static final PointerBases BASES = new PointerBases(SECTION, TEXT, DATA);

    /** Decodes {@code field} placed at section offset 4 and returns the value. */
    private static long decode(int encoding, byte[] field) {
        byte[] data = new ByteSink().u32(0).bytes(field).toBytes();
        DwarfCursor c = new DwarfCursor(data, "test", 4, data.length);
        long v = PointerEncoding.read(c, encoding, BASES);
        assertTrue(c.atEnd(), "consumed the whole field");
        return v;
    }

    @Test
    void valueFormats() {
        assertEquals(
                0x1122334455667788L,
                decode(0x00, new ByteSink().u64(0x1122334455667788L).toBytes()));
        assertEquals(0xfffe, decode(0x02, ByteSink.of(0xfe, 0xff)));
        assertEquals(0xfffffffeL, decode(0x03, new ByteSink().u32(0xfffffffeL).toBytes()));
        assertEquals(-1, decode(0x04, new ByteSink().u64(-1).toBytes()));
        assertEquals(300, decode(0x01, new ByteSink().uleb(300).toBytes()));
        assertEquals(-300, decode(0x09, new ByteSink().sleb(-300).toBytes()));
        assertEquals(-2, decode(0x0a, ByteSink.of(0xfe, 0xff)));
        assertEquals(-2, decode(0x0b, new ByteSink().u32(0xfffffffeL).toBytes()));
        assertEquals(-2, decode(0x0c, new ByteSink().u64(-2).toBytes()));
    }

    @Test
    void applications() {
        assertEquals(SECTION + 4 - 0x10, decode(0x1b, new ByteSink().u32(-0x10).toBytes()));
        assertEquals(TEXT + 0x10, decode(0x23, new ByteSink().u32(0x10).toBytes()));
        assertEquals(DATA - 8, decode(0x3b, new ByteSink().u32(-8).toBytes()));
        // aligned: padding up to an 8-byte address, then a plain absolute pointer
        assertEquals(0x55, decode(0x50, new ByteSink().u32(0).u64(0x55).toBytes()));
    }

    @Test
    void unsupportedFormsSayWhy() {
        assertTrue(message(0x9b).contains("indirect pointer encoding 0x9b is not supported"));
        assertTrue(message(0x43).contains("funcrel"));
        assertTrue(message(0x0f).contains("unknown pointer value format"));
        assertTrue(message(0xff).contains("omitted"));
        DwarfCursor c = new DwarfCursor(new byte[8], "test", 0, 8);
        assertTrue(assertThrows(CfiFormatException.class, () -> PointerEncoding.read(c, 0x23, PointerBases.of(0)))
                .getMessage()
                .contains("textrel"));
    }

    private static String message(int encoding) {
        DwarfCursor c = new DwarfCursor(new byte[8], "test", 0, 8);
        return assertThrows(CfiFormatException.class, () -> PointerEncoding.read(c, encoding, BASES))
                .getMessage();
    }

    @Test
    void fieldsRunningPastTheEndAreRejected() {
        DwarfCursor c = new DwarfCursor(new byte[3], "test", 0, 3);
        assertThrows(CfiFormatException.class, () -> PointerEncoding.read(c, 0x1b, BASES));
    }
}
