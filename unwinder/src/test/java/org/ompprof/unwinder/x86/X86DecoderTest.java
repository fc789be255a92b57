package org.ompprof.unwinder.x86;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Section;

class X86DecoderTest {
    private static final String OBJDUMP = "llvm-objdump-19";
    private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    private static final String LIBOMP = "/usr/lib/llvm-19/lib/libomp.so.5";
    private static final HexFormat HEX = HexFormat.of();

    /** Valid instructions of many kinds, which the truncation test cuts short at every byte. */
    private static final String[] VALID = {
        "55",
        "41 57",
        "48 83 ec 18",
        "48 81 ec 88 01 00 00",
        "48 89 e5",
        "c9",
        "c3",
        "48 8d 64 24 08",
        "e8 10 00 00 00",
        "eb fe",
        "0f 84 00 01 00 00",
        "f3 0f 1e fa",
        "66 2e 0f 1f 84 00 00 00 00 00",
        "48 b8 88 77 66 55 44 33 22 11",
        "c5 f8 77",
        "c4 e3 7d 18 c1 01",
        "62 f1 7c 48 10 44 24 01",
        "f6 c1 01",
        "66 f7 c1 01 00",
        "c8 10 00 00",
        "48 8b 05 10 00 00 00",
        "8b 04 25 78 56 34 12",
        "a1 01 02 03 04 05 06 07 08",
        "67 a1 01 02 03 04",
        "c2 08 00",
        "41 ff d3",
        "f0 48 0f b1 0e",
        "66 0f 3a 0f c1 08",
        "66 0f 38 00 c1",
        "c4 e2 79 18 05 00 01 00 00",
        "64 48 8b 04 25 28 00 00 00",
        "f3 48 a5",
        "0f 0b",
        "0f 05",
        "f7 d8",
        "66 0f 78 c0 01 02",
        "f3 0f b8 c1",
        "0f 20 c0",
        "c7 f8 00 00 00 00",
        "c6 f8 01",
        "8f 00",
        "0f ba e0 03",
        "0f 0f c1 0d",
        "62 f5 7c 48 58 c1",
        "e3 fe",
        "0f 01 d0",
        "d9 ee",
        "48 0f c7 0e"
    };

    @Test
    void prologueAndEpilogue() {
        X86Instruction push = decode("55");
        assertAll(
                () -> assertEquals(0, push.map()),
                () -> assertEquals(0x55, push.opcode()),
                () -> assertFalse(push.hasModrm()),
                () -> assertEquals(0, push.rex()),
                () -> assertEquals(0, push.prefixes()));
        X86Instruction pushR15 = decode("41 57");
        assertAll(
                () -> assertEquals(0x57, pushR15.opcode()),
                () -> assertEquals(1, pushR15.rex()),
                () -> assertEquals(X86Instruction.REX, pushR15.prefixes()));
        assertModrm(decode("48 89 e5"), 0x89, 3, 4, 5); // mov rbp, rsp
        assertEquals(0xC9, decode("c9").opcode());
        assertEquals(0xC3, decode("c3").opcode());
        X86Instruction ret8 = decode("c2 08 00");
        assertEquals(8, ret8.immediate());
        assertEquals(2, ret8.immediateSize());
    }

    @Test
    void stackAdjustments() {
        X86Instruction sub8 = decode("48 83 ec 18");
        assertModrm(sub8, 0x83, 3, 5, 4);
        assertTrue(sub8.rexW());
        assertImmediate(sub8, 0x18, 1);
        X86Instruction sub32 = decode("48 81 ec 88 01 00 00");
        assertModrm(sub32, 0x81, 3, 5, 4);
        assertImmediate(sub32, 0x188, 4);
        X86Instruction lea = decode("48 8d 64 24 08");
        assertModrm(lea, 0x8D, 1, 4, 4);
        assertEquals(0x24, lea.sib());
        assertEquals(4, lea.sibBase());
        assertEquals(8, lea.displacement());
        assertFalse(lea.ripRelative());
        X86Instruction enter = decode("c8 10 00 00");
        assertImmediate(enter, 0x10, 3);
        assertEquals(-8, decode("48 83 c4 f8").immediate(), "sign-extended");
    }

    @Test
    void memoryOperands() {
        X86Instruction rip = decode("48 8b 05 10 00 00 00");
        assertTrue(rip.ripRelative());
        assertEquals(0x10, rip.displacement());
        X86Instruction absolute = decode("8b 04 25 78 56 34 12");
        assertFalse(absolute.ripRelative());
        assertEquals(-1, absolute.sibBase(), "SIB base 5 with mod 0 is no base");
        assertEquals(0x12345678, absolute.displacement());
        X86Instruction r13 = decode("43 8b 44 25 f0"); // mov eax, [r13 + r12 - 16]
        assertEquals(13, r13.sibBase());
        assertEquals(-16, r13.displacement());
        assertEquals(0x0807060504030201L, decode("a1 01 02 03 04 05 06 07 08").displacement());
        assertEquals(0x04030201, decode("67 a1 01 02 03 04").displacement(), "67 shortens moffs to 4 bytes");
        X86Instruction callR11 = decode("41 ff d3");
        assertModrm(callR11, 0xFF, 3, 2, 11);
        assertFalse(decode("0f 20 05").ripRelative(), "MOV from CR0 ignores mod");
        assertEquals(3, decode("0f 20 05").length());
    }

    @Test
    void relativeBranches() {
        X86Instruction call = decode("e8 10 00 00 00");
        assertTrue(call.isRelativeBranch());
        assertEquals(0x1015, call.relativeTarget(0x1000));
        assertEquals(0x1000, decode("e8 fb ff ff ff").relativeTarget(0x1000));
        assertEquals(0x2000, decode("eb fe").relativeTarget(0x2000));
        X86Instruction je = decode("0f 84 00 01 00 00");
        assertEquals(1, je.map());
        assertEquals(0x84, je.opcode());
        assertEquals(0x1106, je.relativeTarget(0x1000));
        assertEquals(0x3000 + 2 - 0x80, decode("75 80").relativeTarget(0x3000));
        assertEquals(0x40, decode("e3 3e").relativeTarget(0), "jrcxz");
        X86Instruction ret = decode("c3");
        assertFalse(ret.isRelativeBranch());
        assertThrows(IllegalStateException.class, () -> ret.relativeTarget(0));
        assertFalse(decode("c5 f8 77").isRelativeBranch());
    }

    @Test
    void prefixesAndRex() {
        X86Instruction endbr = decode("f3 0f 1e fa");
        assertEquals(X86Instruction.REP, endbr.prefixes());
        assertModrm(endbr, 0x1E, 3, 7, 2);
        X86Instruction nopw = decode("66 2e 0f 1f 84 00 00 00 00 00");
        assertEquals(X86Instruction.OPERAND_SIZE, nopw.prefixes());
        assertEquals(1, nopw.map());
        assertEquals(0x1F, nopw.opcode());
        assertEquals(0, nopw.sib());
        X86Instruction movabs = decode("48 b8 88 77 66 55 44 33 22 11");
        assertImmediate(movabs, 0x1122334455667788L, 8);
        assertEquals(5, decode("48 66 b8 01 00").length(), "a REX before another prefix is ignored");
        assertEquals(11, decode("66 48 b8 01 02 03 04 05 06 07 08").length(), "REX.W overrides 66");
        assertEquals(7, decode("66 48 05 01 00 00 00").length());
        assertEquals(4, decode("66 05 01 00").length());
        X86Instruction test8 = decode("f6 c1 01");
        assertImmediate(test8, 1, 1);
        assertImmediate(decode("66 f7 c1 01 00"), 1, 2);
        assertEquals(0, decode("f7 d8").immediateSize(), "NEG has no immediate");
        X86Instruction lock = decode("f0 48 0f b1 0e");
        assertEquals(X86Instruction.LOCK | X86Instruction.REX, lock.prefixes());
        assertTrue(lock.rexW());
        assertEquals(15, decode("66 ".repeat(14) + "90").length());
        assertNull(decodeAll("66 ".repeat(15) + "90"), "longer than 15 bytes");
    }

    @Test
    void threeByteMaps() {
        X86Instruction palignr = decode("66 0f 3a 0f c1 08");
        assertEquals(3, palignr.map());
        assertImmediate(palignr, 8, 1);
        X86Instruction pshufb = decode("66 0f 38 00 c1");
        assertEquals(2, pshufb.map());
        assertEquals(0, pshufb.immediateSize());
    }

    @Test
    void vexAndEvex() {
        X86Instruction vzeroupper = decode("c5 f8 77");
        assertEquals(1, vzeroupper.map());
        assertEquals(0x77, vzeroupper.opcode());
        assertEquals(X86Instruction.VEX, vzeroupper.prefixes());
        assertFalse(vzeroupper.hasModrm());
        X86Instruction vinsertf128 = decode("c4 e3 7d 18 c1 01");
        assertEquals(3, vinsertf128.map());
        assertEquals(X86Instruction.VEX | X86Instruction.OPERAND_SIZE, vinsertf128.prefixes());
        assertModrm(vinsertf128, 0x18, 3, 0, 1);
        assertImmediate(vinsertf128, 1, 1);
        X86Instruction broadcast = decode("c4 e2 79 18 05 00 01 00 00");
        assertTrue(broadcast.ripRelative());
        assertEquals(0x100, broadcast.displacement());
        assertEquals(11, decode("c4 c1 7d 6f c3").rm(), "VEX.B is REX.B");
        X86Instruction vmovups = decode("62 f1 7c 48 10 44 24 01");
        assertEquals(X86Instruction.EVEX, vmovups.prefixes());
        assertEquals(1, vmovups.map());
        assertModrm(vmovups, 0x10, 1, 0, 4);
        assertEquals(1, vmovups.displacement(), "disp8, before scaling by the vector size");
        assertEquals(5, decode("62 f5 7c 48 58 c1").map(), "AVX512-FP16 vaddph");
        assertImmediate(decode("62 f1 7d 48 72 e0 05"), 5, 1); // vpsrad zmm0, zmm0, 5
    }

    /** Bytes that are no instruction in 64-bit mode, or whose length depends on the vendor. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "06",
                "07",
                "0e",
                "16",
                "17",
                "1e",
                "1f",
                "27",
                "2f",
                "37",
                "3f",
                "60",
                "61",
                "82 c0 01",
                "9a",
                "ce",
                "d4 0a",
                "d5 0a",
                "d6",
                "ea",
                "8f c8",
                "ff ff",
                "fe d0",
                "c6 c8 01",
                "c7 c8 00 00 00 00",
                "0f 04",
                "0f 0a",
                "0f ff c0",
                "0f b8 c0",
                "0f ba c0 01",
                "48 c5 f8 77",
                "66 c5 f8 77",
                "f0 62 f1 7c 48 10 c0",
                "8d c0",
                "ff d8",
                "8e c8",
                "8c f0",
                "c4 e0 78 77",
                "c4 e4 78 77",
                "62 f8 7c 48 10 c0",
                "66 0f 78 40 01 02",
                "62 f0 7c 48 10 c0",
                "62 f4 7c 08 01 c0",
                "66 e8 00 00 00 00",
                "66 0f 84 00 00 00 00",
                "40",
                "f3",
                "0f",
                "0f 38",
                "c4 e1"
            })
    void invalidOrUncertain(String hex) {
        byte[] code = HEX.parseHex(hex.replace(" ", "") + "00000000000000000000");
        assertNull(X86Decoder.decode(code, 0, hex.replace(" ", "").length() / 2), hex);
    }

    @Test
    void badArguments() {
        byte[] nop = {(byte) 0x90};
        assertNull(X86Decoder.decode(null, 0, 1));
        assertNull(X86Decoder.decode(nop, -1, 1));
        assertNull(X86Decoder.decode(nop, 0, 2));
        assertNull(X86Decoder.decode(nop, 1, 1));
        assertNull(X86Decoder.decode(nop, 0, 0));
        assertNull(X86Decoder.decode(nop, Integer.MAX_VALUE, Integer.MIN_VALUE));
        assertEquals(1, X86Decoder.decode(nop, 0, 1).length());
    }

    /** An instruction whose last byte, or more, falls at or after {@code end} is no instruction. */
    @Test
    void truncatedInstructionsDecodeToNothing() {
        for (String hex : VALID) {
            byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
            byte[] code = new byte[bytes.length + 10];
            System.arraycopy(bytes, 0, code, 3, bytes.length);
            assertEquals(bytes.length, X86Decoder.decode(code, 3, code.length).length(), hex);
            for (int end = 3; end < 3 + bytes.length; end++)
                assertNull(X86Decoder.decode(code, 3, end), hex + " cut at " + (end - 3));
        }
    }

    /**
     * Random bytes, biased towards prefixes, escapes, groups and memory operands so that the deeper paths are taken:
     * decoding never throws, never reads at or after {@code end}, and an instruction is exactly as long as it says.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 0x5eed})
    void randomBytes(long seed) {
        Random random = new Random(seed);
        byte[] code = new byte[64];
        byte[] interesting = HEX.parseHex(
                "6667f0f2f32e6465404148" + "0f0f383a" + "c4c562" + "8fc6c7f6f7feff" + "0405448424" + "a0b8c8e8e9");
        int decoded = 0;
        for (int i = 0; i < 200_000; i++) {
            for (int j = 0; j < code.length; j++)
                code[j] = random.nextInt(3) == 0
                        ? interesting[random.nextInt(interesting.length)]
                        : (byte) random.nextInt();
            int offset = random.nextInt(8), end = offset + 1 + random.nextInt(code.length - offset);
            X86Instruction insn = X86Decoder.decode(code, offset, end);
            invert(code, end);
            assertEquals(insn, X86Decoder.decode(code, offset, end), "bytes at or after end are not read");
            if (insn == null) continue;
            decoded++;
            int length = insn.length();
            assertTrue(length >= 1 && length <= Math.min(15, end - offset), insn::toString);
            assertEquals(insn, X86Decoder.decode(code, offset, offset + length), "exactly its bytes");
            assertNull(X86Decoder.decode(code, offset, offset + length - 1), "one byte short");
            invert(code, offset + length);
            assertEquals(insn, X86Decoder.decode(code, offset, end), "bytes after it do not matter");
        }
        assertTrue(decoded > 100_000, decoded + " decoded");
    }

    private static void invert(byte[] code, int from) {
        for (int j = from; j < code.length; j++) code[j] = (byte) ~code[j];
    }

    /**
     * Every instruction llvm-objdump finds in a library's .text is as long here. Its bare prefix lines ({@code lock},
     * {@code xacquire}, a {@code rep} before a REX) belong to the instruction after them.
     */
    @ParameterizedTest
    @ValueSource(strings = {LIBC, LIBOMP})
    void lengthsAsLlvmObjdump(String library, @TempDir Path noDebugFiles) throws Exception {
        compareWithObjdump(Path.of(library), noDebugFiles);
    }

    private static void compareWithObjdump(Path library, Path noDebugFiles) throws Exception {
        assertTrue(TestProcesses.onPath(OBJDUMP), OBJDUMP + " is not on PATH");
        long started = System.nanoTime();
        ElfFile elf = ElfFile.read(library);
        Section text = elf.section(".text").orElseThrow();
        Comparison comparison = new Comparison(elf.contents(text), text.addr());
        // A separate debug file found by build id would be disassembled instead: its .text has no bytes.
        Process p = new ProcessBuilder(
                        OBJDUMP,
                        "-d",
                        "--no-leading-headers",
                        "--section=.text",
                        "--debug-file-directory=" + noDebugFiles,
                        library.toString())
                .redirectErrorStream(true)
                .start();
        List<String> unparsed = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (!comparison.line(line) && unparsed.size() < 20) unparsed.add(line);
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), OBJDUMP + " did not finish");
        assertEquals(0, p.exitValue(), String.join("\n", unparsed));
        System.out.printf(
                "%s: %d instructions compared, %d skipped, %.1f s%n",
                library, comparison.compared, comparison.skipped, (System.nanoTime() - started) / 1e9);
        assertTrue(comparison.compared > 10_000, comparison.compared + " compared; unparsed: " + unparsed);
        if (comparison.mismatches > 0)
            fail(comparison.mismatches + " of " + comparison.compared + " differ in " + library + ":\n"
                    + String.join("\n", comparison.report));
    }

    /** llvm-objdump's lines, one at a time, against the decoder over the same bytes. */
    private static final class Comparison {
        private final byte[] text;
        private final long base;
        private final long[] pendingAt = new long[15];
        private final int[] pendingLength = new int[15];
        private int pending;
        int compared, skipped, mismatches;
        final List<String> report = new ArrayList<>();

        Comparison(byte[] text, long base) {
            this.text = text;
            this.base = base;
        }

        /** Takes one line of output; false if it is neither an instruction nor a symbol or section header. */
        boolean line(String line) {
            int colon = line.indexOf(':');
            String at = colon < 0 ? "" : line.substring(0, colon).trim();
            if (!line.startsWith(" ") || at.isEmpty() || !at.chars().allMatch(c -> isHex((char) c)) || at.length() > 15)
                return line.isBlank() || line.endsWith(">:") || line.contains("...");
            long address = Long.parseLong(at, 16);
            int length = 0, i = colon + 2;
            while (i + 2 < line.length()
                    && isHex(line.charAt(i))
                    && isHex(line.charAt(i + 1))
                    && isBlank(line.charAt(i + 2))) {
                length++;
                i += 3;
            }
            String text = line.substring(Math.min(i, line.length())).trim();
            if (text.startsWith("<unknown>") || text.startsWith("(bad)")) {
                pending = 0;
                skipped++;
            } else if (allPrefixes(address, length)) {
                if (pending == pendingAt.length) pending = 0;
                pendingAt[pending] = address;
                pendingLength[pending++] = length;
            } else {
                instruction(address, length);
            }
            return true;
        }

        /** An instruction, and the bare prefixes before it that llvm-objdump listed on lines of their own. */
        private void instruction(long address, int length) {
            compare(address, length);
            for (int k = pending - 1; k >= 0 && pendingAt[k] + pendingLength[k] == address; k--) {
                length += pendingLength[k];
                address = pendingAt[k];
                compare(address, length);
            }
            pending = 0;
        }

        private void compare(long address, int expected) {
            compared++;
            int offset = (int) (address - base);
            X86Instruction insn = X86Decoder.decode(text, offset, text.length);
            int actual = insn == null ? 0 : insn.length();
            if (actual == expected) return;
            if (mismatches++ < 20) {
                String bytes = HEX.formatHex(text, offset, Math.min(text.length, offset + 15));
                report.add(String.format(
                        "0x%x: %s: llvm-objdump %d bytes, decoded %s",
                        address, bytes, expected, insn == null ? "null" : actual));
            }
        }

        private boolean allPrefixes(long address, int length) {
            int offset = (int) (address - base);
            for (int i = offset; i < offset + length; i++) {
                int b = text[i] & 0xFF;
                boolean prefix = (b & 0xF0) == 0x40
                        || b == 0x66
                        || b == 0x67
                        || b == 0xF0
                        || b == 0xF2
                        || b == 0xF3
                        || b == 0x26
                        || b == 0x2E
                        || b == 0x36
                        || b == 0x3E
                        || b == 0x64
                        || b == 0x65;
                if (!prefix) return false;
            }
            return length > 0;
        }

        private static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }

        private static boolean isHex(char c) {
            return c >= '0' && c <= '9' || c >= 'a' && c <= 'f';
        }
    }

    /** The instruction spelt by {@code hex}, which must be all of it, and is nothing when any of it is cut off. */
    private static X86Instruction decode(String hex) {
        X86Instruction insn = decodeAll(hex);
        assertNotNull(insn, hex);
        byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
        for (int end = 0; end < bytes.length; end++) assertNull(X86Decoder.decode(bytes, 0, end), hex + " cut");
        return insn;
    }

    private static X86Instruction decodeAll(String hex) {
        byte[] bytes = HEX.parseHex(hex.replace(" ", ""));
        byte[] padded = new byte[bytes.length + 16];
        System.arraycopy(bytes, 0, padded, 0, bytes.length);
        X86Instruction insn = X86Decoder.decode(padded, 0, padded.length);
        if (insn != null) assertEquals(bytes.length, insn.length(), hex);
        return insn;
    }

    private static void assertModrm(X86Instruction insn, int opcode, int mod, int reg, int rm) {
        assertAll(
                insn.toString(),
                () -> assertEquals(opcode, insn.opcode(), "opcode"),
                () -> assertEquals(mod, insn.mod(), "mod"),
                () -> assertEquals(reg, insn.reg(), "reg"),
                () -> assertEquals(rm, insn.rm(), "rm"));
    }

    private static void assertImmediate(X86Instruction insn, long value, int size) {
        assertEquals(value, insn.immediate(), insn::toString);
        assertEquals(size, insn.immediateSize(), insn::toString);
    }
}
