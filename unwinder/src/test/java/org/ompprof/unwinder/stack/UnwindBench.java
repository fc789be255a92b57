package org.ompprof.unwinder.stack;

import java.util.ArrayList;
import java.util.List;
import org.ompprof.unwinder.cfi.ModuleCfi;

/**
 * Unwinding speed (`make bench`, scripts/bench-unwind): the real captures unwound over and over
 * with warm caches (the steady state of a profile), and once with cold ones (first samples).
 * Run from the unwinder module's directory (the fixture builds its programs under target/).
 */
public final class UnwindBench {
    private record Sample(AddressSpace space, Registers registers, StackSnapshot snapshot) {}

    private UnwindBench() {}

    public static void main(String[] args) throws Exception {
        List<Sample> samples = new ArrayList<>();
        for (SelfStackFixture.Case c : SelfStackFixture.cases()) {
            SelfStackCapture capture = SelfStackFixture.capture(c);
            samples.add(new Sample(SelfStackFixture.addressSpace(capture), capture.registers(), capture.snapshot()));
        }
        measureCold(samples);
        List<StackUnwinder> unwinders =
                samples.stream().map(s -> new StackUnwinder(s.space())).toList();
        run(samples, unwinders, 700_000_000L); // warm-up: C2 needs most of a second to settle
        long start = System.nanoTime();
        long[] counts = run(samples, unwinders, 800_000_000L);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "warm: %,d samples, %,d frames in %.2f s: %,.0f frames/s, %,.0f samples/s (%.1f frames each)%n",
                counts[0],
                counts[1],
                seconds,
                counts[1] / seconds,
                counts[0] / seconds,
                (double) counts[1] / counts[0]);
        if (counts[1] == 0) throw new IllegalStateException("no frame was unwound");
    }

    private static long[] run(List<Sample> samples, List<StackUnwinder> unwinders, long nanos) {
        long deadline = System.nanoTime() + nanos, n = 0, frames = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < samples.size(); i++) {
                Sample s = samples.get(i);
                frames += unwinders
                        .get(i)
                        .unwind(s.registers(), s.snapshot())
                        .frames()
                        .size();
                n++;
            }
        }
        return new long[] {n, frames};
    }

    /** Fresh CFI per module (no cached rows, no scanned index) for every sample: the first-sample cost. */
    private static void measureCold(List<Sample> samples) {
        long start = System.nanoTime(), frames = 0;
        for (Sample s : samples) {
            List<Module> fresh = s.space().modules().stream()
                    .map(m -> Module.of(m.name(), m.elf(), m.bias(), ModuleCfi.of(m.elf())))
                    .toList();
            frames += new StackUnwinder(AddressSpace.of(fresh))
                    .unwind(s.registers(), s.snapshot())
                    .frames()
                    .size();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "cold: %d samples, %d frames in %.3f s: %,.0f frames/s (includes reading the CFI sections)%n",
                samples.size(), frames, seconds, frames / seconds);
    }
}
