package org.ompprof.unwinder.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The calls before return addresses in libomp's code, against objdump's disassembly of it. */
class DirectCallTest {
    private static final Path LIBOMP = Path.of("/usr/lib/llvm-19/lib/libomp.so.5");
    /** {@code   4a2b1:\tcall   4a0f0 <...>} and {@code   4a2c4:\tcall   *%rax}: the call's address and operand. */
    private static final Pattern CALL = Pattern.compile("\\s*([0-9a-f]+):\\s+call\\s+(\\S+).*");

    private record Call(long at, long next, String operand) {}

    @Test
    void directCallsNameTheirTargetsIndirectOnesNothing() throws Exception {
        ElfFile elf = ElfFile.read(LIBOMP);
        List<Call> calls = calls();
        int direct = 0, indirect = 0;
        for (Call c : calls) {
            OptionalLong target = DirectCall.target(elf, c.next());
            if (c.operand().startsWith("*")) {
                assertTrue(target.isEmpty(), "an indirect call at 0x" + Long.toHexString(c.at()));
                indirect++;
            } else {
                assertEquals(OptionalLong.of(Long.parseLong(c.operand(), 16)), target, "0x" + Long.toHexString(c.at()));
                direct++;
            }
        }
        assertTrue(direct > 1000 && indirect > 100, direct + " direct calls, " + indirect + " indirect");
    }

    /** Any address, in the code or not, answers: a target or nothing. */
    @Test
    void anyAddressAnswers() throws Exception {
        ElfFile elf = ElfFile.read(LIBOMP);
        Random random = new Random(36);
        long text = elf.section(".text").orElseThrow().addr();
        long[] fixed = {0, 1, 4, 5, Long.MAX_VALUE, Long.MIN_VALUE, -1, text, text + 4};
        for (long a : fixed) DirectCall.target(elf, a);
        for (int i = 0; i < 100_000; i++) DirectCall.target(elf, text + random.nextInt(0x100000));
        assertTrue(DirectCall.target(elf, text).isEmpty(), "nothing before the code");
    }

    /** Every call objdump finds in libomp's .text, with the address after it. */
    private static List<Call> calls() throws Exception {
        Process p = new ProcessBuilder("objdump", "-d", "--no-show-raw-insn", "-j", ".text", LIBOMP.toString())
                .redirectErrorStream(true)
                .start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null; ) lines.add(l);
        }
        assertEquals(0, p.waitFor(), String.join("\n", lines.subList(0, Math.min(20, lines.size()))));
        Pattern insn = Pattern.compile("\\s*([0-9a-f]+):.*");
        List<Call> out = new ArrayList<>();
        for (int i = 0; i + 1 < lines.size(); i++) {
            Matcher m = CALL.matcher(lines.get(i));
            Matcher next = insn.matcher(lines.get(i + 1));
            if (m.matches() && next.matches())
                out.add(new Call(Long.parseLong(m.group(1), 16), Long.parseLong(next.group(1), 16), m.group(2)));
        }
        return out;
    }
}
