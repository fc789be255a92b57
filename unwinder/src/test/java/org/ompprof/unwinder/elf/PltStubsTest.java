package org.ompprof.unwinder.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.cfi.TestProcesses;

/**
 * libc's PLT stubs against binutils: each named by the GOT slot it jumps through (objdump), not by its order (libc's
 * first stub is strnlen's, its first relocation realloc's); the slot's relocation (readelf -r) names a symbol, or for
 * a call of libc's own ifunc (IRELATIVE: objdump's {@code *ABS*+0x9d670@plt}) a resolver, whose ifunc symbols readelf
 * --dyn-syms lists.
 */
class PltStubsTest {
    private static final Path LIBC = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
    /** {@code   26150:\tjmp    *0x1acf4a(%rip)        # 1d30a0 <...>}: a stub's address and its GOT slot. */
    private static final Pattern JUMP =
            Pattern.compile("\\s*([0-9a-f]+):\\s+jmp\\s+\\*0x[0-9a-f]+\\(%rip\\)\\s+# ([0-9a-f]+).*");
    /** {@code 00000000001d30a0  0000000000000025 R_X86_64_IRELATIVE   9d670}: a slot and the resolver it holds. */
    private static final Pattern IRELATIVE =
            Pattern.compile("([0-9a-f]+)\\s+[0-9a-f]+\\s+R_X86_64_IRELATIVE\\s+([0-9a-f]+)");
    /** {@code 00000000001d3010  0000061300000007 R_X86_64_JUMP_SLOT  0000000000099130 realloc@@GLIBC_2.2.5 + 0}. */
    private static final Pattern JUMP_SLOT =
            Pattern.compile("([0-9a-f]+)\\s+[0-9a-f]+\\s+R_X86_64_(?:JUMP_SLOT|GLOB_DAT)\\s+[0-9a-f]+\\s+([^@\\s]+).*");
    /** {@code  1271: 000000000009d670   129 IFUNC   WEAK   DEFAULT   16 strchrnul@@GLIBC_2.2.5}. */
    private static final Pattern IFUNC =
            Pattern.compile("\\s*\\d+: ([0-9a-f]+)\\s+\\d+ IFUNC\\s+\\S+\\s+\\S+\\s+\\d+ ([^@\\s]+).*");

    @Test
    void libcsOwnIfuncCallsAreNamedForTheirFunction() throws Exception {
        Map<Long, String> symbolOfSlot = new HashMap<>();
        for (Matcher m : matches(JUMP_SLOT, List.of("readelf", "-rW", LIBC.toString())))
            symbolOfSlot.put(hex(m.group(1)), m.group(2));
        Map<Long, Long> resolverOfSlot = new HashMap<>();
        for (Matcher m : matches(IRELATIVE, List.of("readelf", "-rW", LIBC.toString())))
            resolverOfSlot.put(hex(m.group(1)), hex(m.group(2)));
        Map<Long, Set<String>> ifuncsAt = new HashMap<>();
        for (Matcher m : matches(IFUNC, List.of("readelf", "-W", "--dyn-syms", LIBC.toString())))
            ifuncsAt.computeIfAbsent(hex(m.group(1)), k -> new HashSet<>()).add(m.group(2));
        Map<Long, String> named = new HashMap<>();
        for (Symbol stub : PltStubs.of(ElfFile.read(LIBC))) named.put(stub.value(), stub.name());

        int ifuncStubs = 0, symbolStubs = 0;
        List<String> command =
                List.of("objdump", "-d", "-j", ".plt", "-j", ".plt.got", "--no-show-raw-insn", LIBC.toString());
        for (Matcher m : matches(JUMP, command)) {
            long slot = hex(m.group(2));
            String name = named.getOrDefault(hex(m.group(1)), "(none)");
            Long resolver = resolverOfSlot.get(slot);
            if (resolver != null && ifuncsAt.containsKey(resolver)) {
                assertTrue(
                        name.endsWith("@plt") && ifuncsAt.get(resolver).contains(name.substring(0, name.length() - 4)),
                        "the stub at 0x" + m.group(1) + " is " + name + ", not one of " + ifuncsAt.get(resolver));
                ifuncStubs++;
            } else if (symbolOfSlot.containsKey(slot)) {
                assertEquals(symbolOfSlot.get(slot) + "@plt", name, "the stub at 0x" + m.group(1));
                symbolStubs++;
            }
        }
        assertTrue(
                ifuncStubs >= 10,
                "libc calls dozens of its own ifuncs through its PLT (memcpy, strlen): " + ifuncStubs);
        assertTrue(symbolStubs >= 5, "and a few functions of others (the loader's, realloc): " + symbolStubs);
    }

    /** Of aliases at one resolver the exported name with the fewest leading underscores: strchrnul, not __strchrnul. */
    @Test
    void anAliasedIfuncHasItsPlainName() throws Exception {
        Set<String> names = new HashSet<>();
        for (Symbol stub : PltStubs.of(ElfFile.read(LIBC))) names.add(stub.name());
        assertTrue(names.contains("strchrnul@plt") || names.contains("memcpy@plt"), names.toString());
        assertEquals(
                Set.of(),
                Set.copyOf(
                        names.stream().filter(n -> n.startsWith("__strchrnul")).toList()));
    }

    private static List<Matcher> matches(Pattern p, List<String> command) throws Exception {
        return TestProcesses.run(command)
                .lines()
                .map(p::matcher)
                .filter(Matcher::matches)
                .toList();
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s, 16);
    }
}
