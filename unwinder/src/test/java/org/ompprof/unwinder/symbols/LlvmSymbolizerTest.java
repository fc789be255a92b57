package org.ompprof.unwinder.symbols;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.cfi.TestProcesses;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Symbol;

class LlvmSymbolizerTest {
    private static LlvmSymbolizer llvm;
    private static SymbolsFixture.Binaries bins;
    private static ElfFile elf;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(LlvmSymbolizer.locate().isPresent(), "llvm-symbolizer is not installed");
        bins = SymbolsFixture.binaries();
        elf = ElfFile.read(bins.debug());
        llvm = LlvmSymbolizer.start();
    }

    @AfterAll
    static void stop() {
        if (llvm != null) llvm.close();
    }

    /** Some pc of hidden_static is mix() inlined into it, each at its marked line. */
    @Test
    void inlinedFramesAtMarkedLines() throws Exception {
        Symbol s = SymbolsFixture.symbol(elf, "hidden_static");
        List<LlvmAnswer> answers = llvm.symbolize(bins.debug(), SymbolsFixture.range(s.value(), s.value() + s.size()));
        List<LlvmFrame> expected = List.of(
                new LlvmFrame("mix", bins.source().toString(), SymbolsFixture.line("mix"), 0),
                new LlvmFrame("hidden_static", bins.source().toString(), SymbolsFixture.line("static-loop"), 0));
        boolean found =
                answers.stream().anyMatch(a -> withoutColumns(a.frames()).equals(expected));
        assertTrue(found, "no pc of hidden_static reads as " + expected + ": " + answers);
        for (LlvmAnswer a : answers)
            assertEquals("hidden_static", a.frames().getLast().function());
    }

    @Test
    void callLineOfTheGlobalFunction() throws Exception {
        Symbol s = SymbolsFixture.symbol(elf, "exported_global");
        List<LlvmAnswer> answers = llvm.symbolize(bins.debug(), SymbolsFixture.range(s.value(), s.value() + s.size()));
        int line = SymbolsFixture.line("global-call");
        assertTrue(
                answers.stream()
                        .anyMatch(a ->
                                a.frames().size() == 1 && a.frames().getFirst().line() == line),
                answers.toString());
    }

    /**
     * Every pc of the program's functions as a separate one-shot llvm-symbolizer-19 run (LLVM output style) reads it.
     */
    @Test
    void agreesWithAOneShotRun() throws Exception {
        List<Long> pcs = new ArrayList<>();
        for (String f : List.of("main", "exported_global", "hidden_static")) {
            Symbol s = SymbolsFixture.symbol(elf, f);
            for (long pc : SymbolsFixture.range(s.value(), s.value() + s.size())) pcs.add(pc);
        }
        long[] addrs = pcs.stream().mapToLong(Long::longValue).toArray();
        List<LlvmAnswer> ours = llvm.symbolize(bins.debug(), addrs);
        List<String> cmd = new ArrayList<>(List.of(llvm.executable().toString(), "--inlines", "--obj=" + bins.debug()));
        for (long pc : addrs) cmd.add("0x" + Long.toHexString(pc));
        String[] blocks = TestProcesses.run(cmd).strip().split("\n\n");
        assertEquals(addrs.length, blocks.length);
        for (int i = 0; i < addrs.length; i++) {
            assertEquals(blocks[i].strip(), llvmStyle(ours.get(i)), "at 0x" + Long.toHexString(addrs[i]));
        }
    }

    private static String llvmStyle(LlvmAnswer a) {
        StringBuilder sb = new StringBuilder();
        for (LlvmFrame f : a.frames()) {
            if (!sb.isEmpty()) sb.append('\n');
            sb.append(orUnknown(f.function()))
                    .append('\n')
                    .append(orUnknown(f.file()))
                    .append(':')
                    .append(f.line())
                    .append(':')
                    .append(f.column());
        }
        return sb.toString();
    }

    private static String orUnknown(String s) {
        return s.isEmpty() ? "??" : s;
    }

    @Test
    void strippedFileHasNoNames() throws Exception {
        long pc = SymbolsFixture.symbol(elf, "hidden_static").value();
        LlvmAnswer a = llvm.symbolize(bins.stripped(), new long[] {pc}).getFirst();
        assertFalse(a.failed());
        assertTrue(a.frames().stream().noneMatch(LlvmFrame::hasFunction), a.toString());
    }

    @Test
    void missingFileIsAnAnswerNotAFailure() throws Exception {
        List<LlvmAnswer> a = llvm.symbolize(Path.of("/nonexistent/libgone.so"), new long[] {0x1000, 0x2000});
        assertTrue(a.getFirst().failed(), a.toString());
        // llvm-symbolizer reports a missing object once; later questions about it get empty answers.
        assertEquals(0x2000, a.getLast().address());
        assertTrue(a.getLast().frames().stream().noneMatch(LlvmFrame::hasFunction), a.toString());
    }

    @Test
    void batchesLargerThanOneRoundTrip() throws Exception {
        long base = SymbolsFixture.symbol(elf, "main").value();
        long[] pcs = new long[5000];
        for (int i = 0; i < pcs.length; i++) pcs[i] = base + (i % 40);
        List<LlvmAnswer> answers = llvm.symbolize(bins.debug(), pcs);
        assertEquals(pcs.length, answers.size());
        for (int i = 0; i < pcs.length; i++) assertEquals(pcs[i], answers.get(i).address());
    }

    @Test
    void restartsAfterTheProcessIsKilled() throws Exception {
        try (LlvmSymbolizer own = LlvmSymbolizer.start()) {
            long pc = SymbolsFixture.symbol(elf, "main").value();
            List<LlvmAnswer> before = own.symbolize(bins.debug(), new long[] {pc});
            long pid = own.pid().orElseThrow();
            ProcessHandle h = ProcessHandle.of(pid).orElseThrow();
            h.destroyForcibly();
            h.onExit().get(10, TimeUnit.SECONDS);
            assertEquals(before, own.symbolize(bins.debug(), new long[] {pc}));
            assertEquals(1, own.restarts());
            assertNotEquals(pid, own.pid().orElseThrow());
        }
    }

    /** Answers to questions asked ahead are read and dropped in order: the next answers are the ones asked for. */
    @Test
    void questionsAskedAheadKeepTheAnswersInStep() throws Exception {
        long main = mainPc();
        long[] pcs = {main, main + 4, main + 8};
        try (LlvmSymbolizer own = LlvmSymbolizer.start()) {
            own.askAhead(bins.debug(), main);
            own.askAhead(bins.stripped(), main);
            own.askAhead(Path.of("/nonexistent/libgone.so"), 0x1000); // an error answer is dropped too
            assertEquals(llvm.symbolize(bins.debug(), pcs), own.symbolize(bins.debug(), pcs));
            own.askAhead(bins.debug(), main + 12);
            assertEquals(llvm.symbolize(bins.stripped(), pcs), own.symbolize(bins.stripped(), pcs));
            assertEquals(0, own.restarts());
        }
    }

    /** A process killed with answers outstanding: they went with it, and the next questions restart it. */
    @Test
    void questionsAskedAheadOfAKilledProcessAreForgotten() throws Exception {
        long[] pcs = {mainPc()};
        try (LlvmSymbolizer own = LlvmSymbolizer.start()) {
            own.askAhead(bins.debug(), pcs[0]);
            ProcessHandle h = ProcessHandle.of(own.pid().orElseThrow()).orElseThrow();
            h.destroyForcibly();
            h.onExit().get(10, TimeUnit.SECONDS);
            assertEquals(llvm.symbolize(bins.debug(), pcs), own.symbolize(bins.debug(), pcs));
        }
    }

    /**
     * A process that reads nothing: asking ahead never blocks (so few questions are kept outstanding that they fit
     * the pipe), and the next question's wait for the outstanding answers is bounded by the timeout.
     */
    @Test
    void askingAheadOfAHungProcessNeitherBlocksNorHangs() throws Exception {
        try (LlvmSymbolizer hung = LlvmSymbolizer.start(hangingSymbolizer(), Duration.ofMillis(300))) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 20_000; i++) hung.askAhead(bins.debug(), 0x1000 + i); // 1 MB if all were sent
            SymbolizerException e =
                    assertThrows(SymbolizerException.class, () -> hung.symbolize(bins.debug(), new long[] {0x1000}));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(e.getMessage().contains("no answer"), e.getMessage());
            assertTrue(seconds < 5, "took " + seconds + " s");
        }
    }

    @Test
    void askingAheadOfAClosedOneDoesNothing() throws Exception {
        LlvmSymbolizer own = LlvmSymbolizer.start();
        own.close();
        own.askAhead(bins.debug(), 0x1000);
        assertTrue(own.pid().isEmpty(), "not started again");
    }

    private static long mainPc() {
        return SymbolsFixture.symbol(elf, "main").value();
    }

    @Test
    void hungProcessTimesOut() throws Exception {
        Path fake = hangingSymbolizer();
        try (LlvmSymbolizer hung = LlvmSymbolizer.start(fake, Duration.ofMillis(300))) {
            long t0 = System.nanoTime();
            SymbolizerException e =
                    assertThrows(SymbolizerException.class, () -> hung.symbolize(bins.debug(), new long[] {0x1000}));
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(e.getMessage().contains("no answer"), e.getMessage());
            assertTrue(seconds < 5, "took " + seconds + " s");
            assertTrue(hung.pid().isEmpty(), "the hung process should be killed");
        }
    }

    /** Closing does not wait for llvm-symbolizer to exit; one that does not exit is killed after 2 s. */
    @Test
    void closingReturnsAtOnceAndAHungProcessIsKilledLater() throws Exception {
        LlvmSymbolizer hung = LlvmSymbolizer.start(hangingSymbolizer(), Duration.ofMillis(300));
        hung.askAhead(bins.debug(), 0x1000); // starts it
        ProcessHandle h = ProcessHandle.of(hung.pid().orElseThrow()).orElseThrow();
        long t0 = System.nanoTime();
        hung.close();
        double ms = (System.nanoTime() - t0) / 1e6;
        assertTrue(ms < 1000, "close took " + ms + " ms");
        assertTrue(h.isAlive(), "a process that ignores its closed stdin is still there right after close");
        h.onExit().get(10, TimeUnit.SECONDS);
        assertTrue(hung.pid().isEmpty(), "closed");
    }

    @Test
    void missingExecutableIsAClearError() {
        SymbolizerException e = assertThrows(
                SymbolizerException.class,
                () -> LlvmSymbolizer.start(Path.of("/nonexistent/llvm-symbolizer"), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("/nonexistent/llvm-symbolizer"), e.getMessage());
    }

    /** Passes the --help check, then reads nothing and answers nothing. */
    static Path hangingSymbolizer() throws Exception {
        Path dir = Path.of("target/symbols").toAbsolutePath();
        Files.createDirectories(dir);
        Path script = dir.resolve("hanging-symbolizer");
        Files.writeString(
                script,
                "#!/bin/sh\ncase \"$1\" in --help) echo 'styles: LLVM, GNU, JSON'; exit 0;; esac\nexec sleep 600\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private static List<LlvmFrame> withoutColumns(List<LlvmFrame> frames) {
        return frames.stream()
                .map(f -> new LlvmFrame(f.function(), f.file(), f.line(), 0))
                .toList();
    }
}
