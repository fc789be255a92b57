package org.ompprof.sampler.record;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.ompprof.sampler.wire.Wire;
import org.ompprof.sampler.wire.Wire.RecordHeader;

/**
 * A thread's repeated samples ({@link Wire#SAMPLE_REPEAT}): the agent sends the sample struct alone, without task
 * levels, frames or stack, for a thread still blocked in the call of its previous sample, and the sample before it
 * in the thread's records stands for the rest. A reader of a run of records resolves them in order ({@link
 * #resolve}); a writer that cuts a thread's records into sections read apart starts each section with a whole sample
 * ({@link #expanded}).
 */
public final class RepeatedSamples {
    private static final int P = RecordHeader.SIZEOF;

    private SampleRecord last;

    /** {@code r}, or, for a repeat, the sample before it at the repeat's time and weight. */
    WireRecord resolve(WireRecord r) {
        if (!(r instanceof SampleRecord s)) return r;
        if ((s.flags() & Wire.SAMPLE_REPEAT) == 0) return last = s;
        if (last == null || last.threadSeq() != s.threadSeq())
            throw new MalformedRecordException("a repeated sample with no sample of its thread before it");
        return last = last.at(s.timeNs(), s.weightNs());
    }

    /** Whether the {@code n} bytes at {@code at} are a repeated sample (a whole, checked record). */
    public static boolean isRepeat(byte[] array, int at, int n) {
        return isSample(array, at, n) && (Le.u32(array, at + P + Wire.Sample.FLAGS) & Wire.SAMPLE_REPEAT) != 0;
    }

    /** Whether the record at {@code at} of {@code array} is a whole sample: one a repeat may stand on. */
    public static boolean isWholeSample(byte[] array, int at, int n) {
        return isSample(array, at, n) && (Le.u32(array, at + P + Wire.Sample.FLAGS) & Wire.SAMPLE_REPEAT) == 0;
    }

    private static boolean isSample(byte[] array, int at, int n) {
        return n >= P + Wire.Sample.SIZEOF && Le.u16(array, at + RecordHeader.TYPE) == Wire.REC_SAMPLE;
    }

    /** The whole sample {@code before} (a record's bytes) again, at the time and weight of the repeat at {@code at}. */
    public static byte[] expanded(byte[] before, byte[] repeat, int at) {
        MemorySegment r = MemorySegment.ofArray(repeat);
        byte[] whole = Arrays.copyOf(before, before.length);
        MemorySegment w = MemorySegment.ofArray(whole);
        Le.put64(w, P + Wire.Sample.TIME_NS, Le.u64(r, at + P + Wire.Sample.TIME_NS));
        Le.put64(w, P + Wire.Sample.WEIGHT_NS, Le.u64(r, at + P + Wire.Sample.WEIGHT_NS));
        return whole;
    }
}
