package org.ompprof.unwinder.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.unwinder.cfi.ByteSink;
import org.ompprof.unwinder.cfi.EhFrameBuilder;
import org.ompprof.unwinder.cfi.ModuleCfi;
import org.ompprof.unwinder.elf.ElfFile;
import org.ompprof.unwinder.elf.Section;
import org.ompprof.unwinder.elf.Symbol;
import org.ompprof.unwinder.stack.SelfStackFixture.Build;
import org.ompprof.unwinder.stack.SelfStackFixture.Case;
import org.ompprof.unwinder.stack.SelfStackFixture.Scenario;

/** Hand-made samples over real modules, for each way an unwind can end and for PLT stubs. */
class SyntheticUnwindTest {
    private static final long BASE = 0x7ffd_1234_0000L;

    private static SelfStackCapture capture(Build build) throws Exception {
        return SelfStackFixture.capture(new Case(build, Scenario.DIRECT));
    }

    /** The image with its .symtab's type cleared: no function symbols (an executable exports none of its own). */
    private static ElfFile withoutSymbolTable(Module m) throws java.io.IOException {
        ElfFile elf = m.elf();
        byte[] image = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(m.name()));
        ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
        long headers = b.getLong(0x28);
        int size = Short.toUnsignedInt(b.getShort(0x3a));
        for (Section s : elf.sections()) {
            if (s.type() == ElfFile.SHT_SYMTAB) b.putInt((int) (headers + (long) s.index() * size + 4), 0);
        }
        return ElfFile.parse(image);
    }

    private static Module program(AddressSpace space) {
        return space.modules().stream()
                .filter(m -> m.name().contains("selfstack-"))
                .findFirst()
                .orElseThrow();
    }

    private static long function(Module m, String name) {
        return m.elf().symbols().stream()
                        .filter(s -> s.name().equals(name) && s.isFunction())
                        .mapToLong(Symbol::value)
                        .findFirst()
                        .orElseThrow()
                + m.bias();
    }

    private static StackSnapshot words(long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) b.putLong(v);
        return new StackSnapshot(BASE, b.array());
    }

    /**
     * A PLT stub at frame 0, before and after its push: the DW_OP_breg16 CFA expression decides where the return
     * address is.
     */
    @ParameterizedTest(name = "offset {0} in a PLT entry")
    @ValueSource(ints = {0, 6, 10, 11, 15})
    void pltStubAtFrameZero(int offset) throws Exception {
        SelfStackCapture real = capture(Build.GCC_NOFP);
        AddressSpace space = SelfStackFixture.addressSpace(real);
        Module program = program(space);
        Section plt = program.elf().section(".plt").orElseThrow();
        long entry = plt.addr() + program.bias() + 16; // entry 1; entry 0 is the lazy resolver trampoline
        // Pretend c, at the captured point, called this stub: below its rsp, the return address and, after the push, an
        // index.
        int extra = offset >= 11 ? 16 : 8;
        byte[] stack = new byte[extra + real.snapshot().length()];
        ByteBuffer b = ByteBuffer.wrap(stack).order(ByteOrder.LITTLE_ENDIAN);
        if (extra == 16) b.putLong(0, 3);
        b.putLong(extra - 8, real.registers().rip());
        System.arraycopy(
                real.snapshot().bytes(), 0, stack, extra, real.snapshot().length());
        long rsp = real.registers().rsp() - extra;
        UnwindResult r = new StackUnwinder(space)
                .unwind(new Registers(entry + offset, rsp, real.registers().rbp()), new StackSnapshot(rsp, stack));
        UnwindResult direct = new StackUnwinder(space).unwind(real.registers(), real.snapshot());
        assertEquals(Termination.COMPLETE, r.termination(), TestSymbols.describe(r));
        long[] expected = direct.pcs();
        long[] ours = r.pcs();
        assertEquals(entry + offset, ours[0]);
        assertArrayEquals(expected, Arrays.copyOfRange(ours, 1, ours.length), TestSymbols.describe(r));
    }

    @Test
    void returnAddressZeroIsTheEnd() throws Exception {
        AddressSpace space = SelfStackFixture.addressSpace(capture(Build.GCC_NOFP));
        long c = function(program(space), "c");
        UnwindResult r = new StackUnwinder(space).unwind(new Registers(c, BASE, 0), words(0));
        assertEquals(Termination.COMPLETE, r.termination());
        assertEquals(1, r.frames().size());
    }

    @Test
    void pcsOutsideEveryModule() throws Exception {
        AddressSpace space = SelfStackFixture.addressSpace(capture(Build.GCC_NOFP));
        long c = function(program(space), "c");
        UnwindResult first = new StackUnwinder(space).unwind(new Registers(0x1234, BASE, 0), words(c));
        assertEquals(Termination.UNKNOWN_PC, first.termination());
        assertEquals(1, first.frames().size());
        UnwindResult second = new StackUnwinder(space).unwind(new Registers(c, BASE, 0), words(0x1234));
        assertEquals(Termination.UNKNOWN_PC, second.termination());
        assertArrayEquals(new long[] {c, 0x1234}, second.pcs());
        assertEquals(null, second.frames().get(1).module());
    }

    @Test
    void emptySnapshotIsTruncated() throws Exception {
        AddressSpace space = SelfStackFixture.addressSpace(capture(Build.GCC_NOFP));
        long c = function(program(space), "c");
        UnwindResult r =
                new StackUnwinder(space).unwind(new Registers(c, BASE, 0), new StackSnapshot(BASE, new byte[0]));
        assertEquals(Termination.TRUNCATED, r.termination());
        assertTrue(r.detail().contains("outside the snapshot"), r.detail());
        assertEquals(1, r.frames().size());
    }

    /** Each word returns to the first byte after a function entry, whose row is CFA=rsp+8: an endless chain. */
    @Test
    void depthIsLimited() throws Exception {
        AddressSpace space = SelfStackFixture.addressSpace(capture(Build.GCC_NOFP));
        long c = function(program(space), "c");
        long[] chain = new long[2048];
        Arrays.fill(chain, c + 1);
        UnwindResult r = new StackUnwinder(space).unwind(new Registers(c, BASE, 0), words(chain));
        assertEquals(Termination.DEPTH_LIMIT, r.termination());
        assertEquals(StackUnwinder.DEFAULT_MAX_DEPTH, r.frames().size());
        assertEquals(
                10,
                new StackUnwinder(space, 10)
                        .unwind(new Registers(c, BASE, 0), words(chain))
                        .frames()
                        .size());
    }

    /** Where neither CFI nor the machine code says (no symbol bounds the function: stripped), frame pointers. */
    @Test
    void framePointerFallbackGuards() throws Exception {
        AddressSpace withSymbols = SelfStackFixture.addressSpace(capture(Build.GCC_NO_CFI_FP));
        Module symbols = program(withSymbols);
        Module stripped = Module.of(symbols.name(), withoutSymbolTable(symbols), symbols.bias());
        AddressSpace space = AddressSpace.of(withSymbols.modules().stream()
                .map(m -> m == symbols ? stripped : m)
                .toList());
        Module program = symbols;
        long c = function(program, "c"), b = function(program, "b") + 8;
        StackUnwinder unwinder = new StackUnwinder(space);

        UnwindResult below = unwinder.unwind(new Registers(c + 8, BASE, BASE - 16), words(0, b));
        assertEquals(Termination.NO_CFI_FALLBACK_FP, below.termination(), below.detail());
        assertEquals(1, below.frames().size());

        UnwindResult outside = unwinder.unwind(new Registers(c + 8, BASE, BASE + 8), words(0, b));
        assertEquals(Termination.NO_CFI_FALLBACK_FP, outside.termination());
        assertTrue(outside.detail().contains("outside the snapshot"), outside.detail());

        UnwindResult nowhere = unwinder.unwind(new Registers(c + 8, BASE, BASE), words(0, 0x1234));
        assertEquals(Termination.NO_CFI_FALLBACK_FP, nowhere.termination());
        assertEquals(1, nowhere.frames().size(), "a guessed pc in no module is not reported");

        // [rbp] = rbp: a loop in the chain. The next frame would not be above the last, so it stops.
        UnwindResult loop = unwinder.unwind(new Registers(c + 8, BASE, BASE), words(BASE, b, 0, 0));
        assertEquals(Termination.NO_CFI_FALLBACK_FP, loop.termination());
        assertArrayEquals(new long[] {c + 8, b}, loop.pcs());
        assertEquals(FrameKind.FRAME_POINTER, loop.frames().get(1).kind());
        assertEquals(b - 1, loop.frames().get(1).lookupPc());
    }

    @Test
    void damagedCfiIsAnError() throws Exception {
        Module program = program(SelfStackFixture.addressSpace(capture(Build.GCC_NOFP)));
        long text = program.elf().section(".text").orElseThrow().addr();
        EhFrameBuilder eh = EhFrameBuilder.ehFrame();
        eh.fde(eh.standardCie(), text, 0x100, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x2d));
        UnwindResult r = unwindWith(program, eh.module(), text);
        assertEquals(Termination.ERROR, r.termination());
        assertTrue(r.detail().contains("unsupported call frame instruction 0x2d"), r.detail());
    }

    @Test
    void rulesNeedingUnknownRegistersAreErrors() throws Exception {
        Module program = program(SelfStackFixture.addressSpace(capture(Build.GCC_NOFP)));
        long text = program.elf().section(".text").orElseThrow().addr();
        EhFrameBuilder eh = EhFrameBuilder.ehFrame();
        eh.fde(eh.standardCie(), text, 0x100, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x0c, 0x03, 0x08)); // CFA=rbx+8
        UnwindResult r = unwindWith(program, eh.module(), text);
        assertEquals(Termination.ERROR, r.termination());
        assertTrue(r.detail().contains("RBX"), r.detail());
    }

    @Test
    void aFrameThatDoesNotMoveTheStackIsAnError() throws Exception {
        Module program = program(SelfStackFixture.addressSpace(capture(Build.GCC_NOFP)));
        long text = program.elf().section(".text").orElseThrow().addr();
        EhFrameBuilder eh = EhFrameBuilder.ehFrame();
        eh.fde(eh.standardCie(), text, 0x100, EhFrameBuilder.PCREL_SDATA4, ByteSink.of(0x0e, 0x00, 0x90, 0x00));
        UnwindResult r = unwindWith(program, eh.module(), text);
        assertEquals(Termination.ERROR, r.termination());
        assertTrue(r.detail().contains("did not increase"), r.detail());
    }

    private static UnwindResult unwindWith(Module original, ModuleCfi cfi, long vaddr) {
        Module m = Module.of("synthetic", original.elf(), original.bias(), cfi);
        List<Module> modules = new ArrayList<>(List.of(m));
        long pc = vaddr + original.bias();
        return new StackUnwinder(AddressSpace.of(modules)).unwind(new Registers(pc, BASE, BASE), words(pc + 1, pc + 1));
    }

    @Test
    void overlappingModulesAreRejected() throws Exception {
        Module program = program(SelfStackFixture.addressSpace(capture(Build.GCC_NOFP)));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class,
                        () -> AddressSpace.of(List.of(program, Module.of("twin", program.elf(), program.bias()))))
                .getMessage()
                .contains("overlaps"));
    }
}
