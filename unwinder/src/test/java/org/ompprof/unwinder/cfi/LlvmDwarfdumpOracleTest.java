package org.ompprof.unwinder.cfi;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.elf.ElfFile;

/**
 * Every row of every FDE of real modules, as computed here, against llvm-dwarfdump's table:
 * an independent interpreter run over tens of thousands of rows from gcc, clang, glibc's
 * hand-written assembly and the kernel's vDSO.
 */
class LlvmDwarfdumpOracleTest {
    private static final String DWARFDUMP = "llvm-dwarfdump-19";
    private static final Pattern FDE =
            Pattern.compile("^[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\\.\\.\\.([0-9a-f]+)");
    private static final Pattern ROW = Pattern.compile("^  0x([0-9a-f]+): (.*)$");
    private static final Set<String> TRACKED =
            IntStream.range(0, X86Registers.COUNT).mapToObj(X86Registers::name).collect(Collectors.toSet());
    private static final Path WORK = Path.of("target/cfi-oracle");

    /** One row of llvm-dwarfdump's table, with the range of the FDE it belongs to and where the next row starts. */
    record DumpRow(CfiOrigin origin, long fdeBegin, long fdeEnd, long address, long end, String text) {}

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/usr/lib/x86_64-linux-gnu/libc.so.6",
                "/lib64/ld-linux-x86-64.so.2",
                "/usr/lib/llvm-19/lib/libomp.so.5",
                "/lib/x86_64-linux-gnu/libgcc_s.so.1",
                "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                "vdso"
            })
    void ehFrameRowsMatch(String file) throws Exception {
        Path path = file.equals("vdso") ? dumpVdso() : Path.of(file);
        assumeTrue(path != null && Files.exists(path), file + " not present");
        compare(path, "--eh-frame");
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc", "clang-19"})
    void debugFrameRowsMatch(String compiler) throws Exception {
        assumeTrue(TestProcesses.onPath(compiler), compiler + " not installed");
        Files.createDirectories(WORK);
        Path binary = WORK.resolve("debug-frame-" + compiler).toAbsolutePath();
        TestProcesses.run(List.of(
                compiler,
                "-O2",
                "-g",
                "-fno-asynchronous-unwind-tables",
                "-fno-unwind-tables",
                "-o",
                binary.toString(),
                "src/test/c/selfstack.c"));
        List<DumpRow> rows = compare(binary, "--debug-frame");
        assertTrue(
                rows.stream().filter(r -> r.origin() == CfiOrigin.DEBUG_FRAME).count() > 5, "no .debug_frame rows");
    }

    /**
     * llvm-dwarfdump prints .debug_frame and .eh_frame for either option; each row is checked against its own section.
     */
    private static List<DumpRow> compare(Path file, String option) throws Exception {
        assumeTrue(TestProcesses.onPath(DWARFDUMP), DWARFDUMP + " not installed");
        List<DumpRow> rows = parse(TestProcesses.run(List.of(DWARFDUMP, option, file.toString())));
        ModuleCfi cfi = ModuleCfi.of(ElfFile.read(file));
        List<String> mismatches = new ArrayList<>();
        for (DumpRow expected : rows) {
            String problem = check(cfi, expected);
            if (problem != null) mismatches.add(problem);
        }
        System.out.printf("%s %s: %d rows compared, %d mismatches%n", file, option, rows.size(), mismatches.size());
        assertTrue(rows.size() > 5, "llvm-dwarfdump printed almost no rows for " + file);
        assertTrue(
                mismatches.isEmpty(),
                mismatches.size() + " of " + rows.size() + " rows differ, e.g.\n"
                        + String.join("\n", mismatches.subList(0, Math.min(20, mismatches.size()))));
        return rows;
    }

    private static String check(ModuleCfi cfi, DumpRow expected) {
        String at = "0x" + Long.toHexString(expected.address()) + ": ";
        RowResult result = cfi.rowFor(expected.address());
        if (!(result instanceof UnwindRow row)) return at + "expected " + expected.text() + ", got " + result;
        String ours = normalize(row.describe()), theirs = normalize(expected.text());
        if (!ours.equals(theirs)) return at + "expected " + theirs + ", got " + ours;
        if (row.start() != expected.address() || row.end() != expected.end()) {
            return at + "row range 0x" + Long.toHexString(row.start()) + "-0x" + Long.toHexString(row.end())
                    + ", expected up to 0x" + Long.toHexString(expected.end());
        }
        return row.origin() == expected.origin() ? null : at + "came from " + row.origin();
    }

    static List<DumpRow> parse(String dump) {
        List<DumpRow> out = new ArrayList<>();
        long begin = -1, end = -1;
        CfiOrigin origin = CfiOrigin.DEBUG_FRAME, fdeOrigin = origin;
        Map<Long, String> fdeRows = new LinkedHashMap<>();
        for (String line : dump.split("\n")) {
            if (line.startsWith(".eh_frame contents")) origin = CfiOrigin.EH_FRAME;
            if (line.startsWith(".debug_frame contents")) origin = CfiOrigin.DEBUG_FRAME;
            Matcher f = FDE.matcher(line);
            if (f.find()) {
                flush(fdeOrigin, begin, end, fdeRows, out);
                fdeOrigin = origin;
                begin = Long.parseUnsignedLong(f.group(1), 16);
                end = Long.parseUnsignedLong(f.group(2), 16);
                continue;
            }
            Matcher r = ROW.matcher(line);
            // When several rows share an address (advance by 0), the last one is in force.
            if (r.find() && begin >= 0) fdeRows.put(Long.parseUnsignedLong(r.group(1), 16), r.group(2));
        }
        flush(fdeOrigin, begin, end, fdeRows, out);
        return out;
    }

    private static void flush(CfiOrigin origin, long begin, long end, Map<Long, String> rows, List<DumpRow> out) {
        if (begin < end) {
            List<Long> addresses = new ArrayList<>(rows.keySet());
            for (int i = 0; i < addresses.size(); i++) {
                long next = i + 1 < addresses.size() ? addresses.get(i + 1) : end;
                out.add(new DumpRow(origin, begin, end, addresses.get(i), next, rows.get(addresses.get(i))));
            }
        }
        rows.clear();
    }

    /** Expressions compared by kind only; registers this unwinder does not track dropped. */
    static String normalize(String row) {
        String s = row.replaceAll("\\[DW_OP[^\\]]*\\]", "[expr]");
        int colon = s.indexOf(": ");
        String cfa = colon < 0 ? s : s.substring(0, colon);
        if (cfa.startsWith("CFA=DW_OP")) cfa = "CFA=expr";
        if (colon < 0) return cfa;
        String regs = java.util.Arrays.stream(s.substring(colon + 2).split(", "))
                .filter(r -> TRACKED.contains(r.substring(0, Math.max(0, r.indexOf('=')))))
                .collect(Collectors.joining(", "));
        return regs.isEmpty() ? cfa : cfa + ": " + regs;
    }

    /** This JVM's own vDSO, read from /proc/self/mem, as a file llvm-dwarfdump can read. */
    private static Path dumpVdso() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            if (!line.endsWith("[vdso]")) continue;
            String[] range = line.substring(0, line.indexOf(' ')).split("-");
            long lo = Long.parseUnsignedLong(range[0], 16), hi = Long.parseUnsignedLong(range[1], 16);
            byte[] image = new byte[(int) (hi - lo)];
            try (RandomAccessFile mem = new RandomAccessFile("/proc/self/mem", "r")) {
                mem.seek(lo);
                mem.readFully(image);
            }
            Files.createDirectories(WORK);
            return Files.write(WORK.resolve("vdso.so"), image);
        }
        return null;
    }
}
